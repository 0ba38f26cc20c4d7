import { blockOn, type BlockOptions, type BlockOutcome } from "./blocking.ts";
import type { CallContext } from "./call_context.ts";
import type { Execution } from "./execution.ts";
import { idleMs } from "./terminal_idle.ts";
import type { TerminalSession } from "./terminal_session.ts";
import { delay } from "./timing.ts";

/** How often a blocking call looks at a terminal program for a prompt. */
const INPUT_POLL_MS = 50;
/** Quiet time before even a password prompt counts: its text is printed around the echo change. */
const INPUT_SETTLE_MS = 100;

/**
 * `blockOn`, and for a terminal execution also until the program waits for input (a password
 * prompt at once, a prompt after its quiet time), so the agent can answer instead of waiting
 * out the budget. A wait that was already told so returns only once new output arrived.
 */
export async function blockOnTerminal(
  execution: Execution,
  budgetMs: number,
  context: CallContext,
  options: BlockOptions,
): Promise<BlockOutcome | "awaiting_input"> {
  const session = execution.terminal;
  if (session === null) return blockOn(execution, budgetMs, context, options);
  const stop = new AbortController();
  const signal = context.signal === undefined
    ? stop.signal
    : AbortSignal.any([context.signal, stop.signal]);
  try {
    return await Promise.race([
      blockOn(execution, budgetMs, { ...context, signal }, options),
      inputWanted(execution, session, options, stop.signal),
    ]);
  } finally {
    stop.abort();
  }
}

/** Settles when the program waits for input with output the agent was not told about. */
async function inputWanted(
  execution: Execution,
  session: TerminalSession,
  options: BlockOptions,
  stop: AbortSignal,
): Promise<"awaiting_input"> {
  while (!stop.aborted && execution.live) {
    if (session.changedSinceReport(execution.log.latestSeq)) {
      const idle = idleMs(execution, options.clock);
      const settled = idle >= INPUT_SETTLE_MS;
      if (settled && await session.awaitingInput(execution.log, idle) !== null) {
        return "awaiting_input";
      }
    }
    await delay(INPUT_POLL_MS, stop);
  }
  // Stopped or ended: the other side of the race decides.
  return new Promise(() => {});
}
