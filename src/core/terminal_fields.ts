import type { TerminalFields } from "../contract/results.ts";
import type { Clock } from "./clock.ts";
import type { Execution } from "./execution.ts";
import { idleMs } from "./terminal_idle.ts";
import type { TerminalSession } from "./terminal_session.ts";
import type { ShownView } from "./terminal_view.ts";

/**
 * What a terminal execution's result adds: the terminal's size, the view `stdout` holds, that
 * output is one stream, and whether the program waits for input (remembered as told).
 */
export async function terminalFields(
  execution: Execution,
  session: TerminalSession,
  shown: ShownView,
  clock: Clock,
): Promise<TerminalFields> {
  const { log } = execution;
  const awaiting = execution.live
    ? await session.awaitingInput(log, idleMs(execution, clock))
    : null;
  if (awaiting !== null) session.markReported(log.latestSeq);
  const { cols, rows } = session.size;
  return { tty: { cols, rows, view: shown, output: "stdout" }, awaiting_input: awaiting };
}
