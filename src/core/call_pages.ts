import type { ExecuteArgs, TerminalViewChoice, WaitArgs } from "../contract/arguments.ts";
import { failed, type Outcome } from "../contract/outcome.ts";
import type { ExecuteResult, RefusedCall } from "../contract/results.ts";
import { terminalSandboxed, viewNeedsTerminal } from "../contract/terminal_texts.ts";
import * as text from "../contract/texts.ts";
import type { Execution } from "./execution.ts";
import { type PageRequest, viewOf } from "./page.ts";
import { type UntilHit, untilPage } from "./until.ts";

/** The arguments of a wait or execute that shape its page. */
export type PageArgs = Pick<
  WaitArgs,
  "since_seq" | "tail_lines" | "max_output_bytes" | "truncation"
>;

/** The view a call asks of a terminal execution. */
export type ViewChoice = TerminalViewChoice | null | undefined;

/** The page request of a wait or execute, ending with the matched line on an output match. */
export function untilRequest(
  args: PageArgs,
  hit: UntilHit | null,
  options: Parameters<typeof viewOf>[1],
): PageRequest {
  return untilPage({
    sinceSeq: args.since_seq ?? null,
    tailLines: args.tail_lines ?? null,
    streams: "both",
    maxOutputBytes: args.max_output_bytes,
    ...viewOf(args.truncation, options),
  }, hit);
}

/** A text view asked of a pipe execution, or null. */
export function checkView(
  execution: Execution,
  view: ViewChoice,
): string | null {
  if (execution.terminal !== null) return null;
  return view === "text" || view === "screen" ? viewNeedsTerminal(execution.id, view) : null;
}

/** An execute that did not start, with the reason. */
export function startFailed(error: string): Outcome<ExecuteResult> {
  return failed({ status: "failed_to_start", error });
}

/** A call on one execution that was refused, with the reason. */
export function refused(id: string, error: string): Outcome<RefusedCall> {
  return failed({ execution_id: id, error });
}

/**
 * Why an admitted command may not start now: shutdown or a process limit (`unstarted`), or a
 * terminal under a sandbox profile that confines it (`rejected`); null when it may.
 */
export function launchRefusal(
  args: Pick<ExecuteArgs, "tty">,
  admission: { sandbox?: { confinement: unknown; label: string } | null },
  counts: { shuttingDown: boolean; live: number; liveInSession: number },
  limits: { maxProcesses: number; perSession: number },
) {
  const { maxProcesses, perSession } = limits;
  const unstarted = counts.shuttingDown
    ? text.SHUTTING_DOWN
    : counts.live >= maxProcesses
    ? text.processLimit(maxProcesses)
    : counts.liveInSession >= perSession
    ? text.sessionProcessLimit(perSession)
    : null;
  if (unstarted !== null) return { kind: "unstarted", reason: unstarted } as const;
  const sandbox = admission.sandbox ?? null;
  if (args.tty === true && (sandbox?.confinement ?? null) !== null) {
    return { kind: "rejected", reason: terminalSandboxed(sandbox?.label ?? "") } as const;
  }
  return null;
}
