/**
 * The longest delay `setTimeout` honours (2^31-1 ms, about 24.8 days); a longer one fires at
 * once with a TimeoutOverflowWarning.
 */
export const MAX_TIMER_STEP_MS = 2 ** 31 - 1;

/** The two timer functions a {@linkcode startTimer} needs; tests pass a fake. */
export interface Scheduler {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const GLOBAL_SCHEDULER: Scheduler = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as number),
};

/**
 * Calls `callback` once `ms` milliseconds have passed, for any `ms` a schema accepts: delays
 * beyond {@linkcode MAX_TIMER_STEP_MS} are chained in steps, as std's `delay` does. Returns a
 * function that cancels the timer; cancelling after it fired does nothing.
 */
export function startTimer(
  ms: number,
  callback: () => void,
  scheduler: Scheduler = GLOBAL_SCHEDULER,
): () => void {
  let remaining = Math.max(0, ms);
  let handle: unknown;
  let cancelled = false;
  const step = () => {
    if (cancelled) return;
    if (remaining <= 0) return callback();
    const next = Math.min(remaining, MAX_TIMER_STEP_MS);
    remaining -= next;
    handle = scheduler.setTimeout(step, next);
  };
  const first = Math.min(remaining, MAX_TIMER_STEP_MS);
  remaining -= first;
  handle = scheduler.setTimeout(step, first);
  return () => {
    cancelled = true;
    scheduler.clearTimeout(handle);
  };
}
