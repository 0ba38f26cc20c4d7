/** The core's time source, injected so that tests can control it. */
export interface Clock {
  /** Wall-clock time in epoch milliseconds (`started_at`, retention ages). */
  nowMs(): number;
  /** Monotonic milliseconds (durations, budgets). */
  monotonicMs(): number;
}
