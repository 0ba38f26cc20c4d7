import { errorText } from "../contract/error_text.ts";
import { progressMessage } from "../contract/texts.ts";
import type { CallContext } from "./call_context.ts";
import type { Clock } from "./clock.ts";
import type { Execution } from "./execution.ts";
import type { Logger } from "./logger.ts";
import { delay } from "./timing.ts";

/** How a blocking call ended: the execution finished, the budget ran out, or the client left. */
export type BlockOutcome = "finished" | "deadline" | "cancelled";

/** Server-wide settings of blocking calls. */
export interface BlockOptions {
  /** Interval of progress notifications, when the call carries a progress token. */
  keepaliveMs: number;
  clock: Clock;
  logger: Logger;
  /** The progress message. @default {bytes so far and the newest line} */
  message?: (execution: Execution, elapsedMs: number) => string;
}

/**
 * Waits up to `budgetMs` for `execution` to finish, or until the call is cancelled, sending
 * progress every `keepaliveMs` meanwhile if the caller asked for it.
 */
export async function blockOn(
  execution: Execution,
  budgetMs: number,
  context: CallContext,
  options: BlockOptions,
): Promise<BlockOutcome> {
  if (!execution.live) return "finished";
  const { onProgress, signal } = context;
  const stop = new AbortController();
  if (onProgress !== undefined) reportProgress(execution, onProgress, stop.signal, options);
  const cancelled = new Promise<"cancelled">((resolve) => {
    if (signal?.aborted) resolve("cancelled");
    signal?.addEventListener("abort", () => resolve("cancelled"), { once: true });
  });
  const deadline = delay(budgetMs, stop.signal).then(() => "deadline" as const);
  try {
    return await Promise.race([
      execution.finished.then(() => "finished" as const),
      deadline,
      cancelled,
    ]);
  } finally {
    // With a reason: abort() without one builds a DOMException (and its stack) every call.
    stop.abort("finished");
  }
}

/** Sends bytes so far and the newest line every `keepaliveMs` until `stop` aborts. */
async function reportProgress(
  execution: Execution,
  onProgress: NonNullable<CallContext["onProgress"]>,
  stop: AbortSignal,
  options: BlockOptions,
): Promise<void> {
  const { keepaliveMs, clock, logger, message = outputMessage } = options;
  const started = clock.monotonicMs();
  while (true) {
    await delay(keepaliveMs, stop);
    if (stop.aborted) return;
    const elapsed = Math.round(clock.monotonicMs() - started);
    try {
      onProgress(elapsed, message(execution, elapsed));
    } catch (error) {
      logger.warn(`Cannot send progress of execution ${execution.id}: ${errorText(error)}`);
      return;
    }
  }
}

/** Bytes of output so far and the newest line. */
function outputMessage(execution: Execution): string {
  return progressMessage(execution.log.latestSeq - 1, newestLine(execution));
}

/** The newest line of output (at most 200 bytes), trimmed. */
function newestLine(execution: Execution): string {
  const { log } = execution;
  const start = log.tailStart({ lines: 1, maxBytes: 200 });
  const newest = log.read({ startSeq: start, maxBytes: 200 });
  return (newest.stdout + newest.stderr).trim().split("\n").at(-1) ?? "";
}
