import { startTimer } from "./timer.ts";

/** The request ceiling every blocking call stays under (the contract's 55 s). */
export const REQUEST_CEILING_MS = 55_000;
/** Grace between SIGTERM and SIGKILL for timeouts and shutdown. */
export const GRACEFUL_STOP_MS = 10_000;
/** How long a killed process group may take to disappear. */
export const PROCESS_GROUP_EXIT_MS = 5_000;
/** Bound on draining pipes after the process group is gone. */
export const FINAL_DRAIN_MS = 3_000;
/** Bound on settling bookkeeping after a stop. */
export const SETTLE_MS = 1_000;
/** Largest `force_after_ms` a stop honours, so kill, drain and settle fit the ceiling. */
export const MAX_STOP_GRACE_MS = REQUEST_CEILING_MS - (PROCESS_GROUP_EXIT_MS + FINAL_DRAIN_MS +
  SETTLE_MS);

/** Resolves after `ms` (any length), or at once when `signal` aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const cancel = startTimer(ms, done);
    function done() {
      cancel();
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Races `promise` against a deadline of `ms` (any length); true when it settled in time. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let cancel = () => {};
  const deadline = new Promise<false>((resolve) => {
    cancel = startTimer(ms, () => resolve(false));
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), deadline]);
  } finally {
    cancel();
  }
}
