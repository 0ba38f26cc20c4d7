import { startTimer } from "./timer.ts";

/** The core's time source, injected so that tests can control it. */
export interface Clock {
  /** Wall-clock time in epoch milliseconds (`started_at`, retention ages). */
  nowMs(): number;
  /** Monotonic milliseconds (durations, budgets). */
  monotonicMs(): number;
}

/** A clock that also schedules: the condition watcher and the pushes' throttle; tests inject a manual one. */
export interface TimerClock extends Clock {
  /** Calls `callback` once after `ms` (any length); returns a function that cancels it. */
  setTimer(callback: () => void, ms: number): () => void;
}

/** The system's clocks (`Date.now`, the clock of `Execution.lastOutputAt`) with chained timers. */
export const systemClock: TimerClock = {
  nowMs: () => Date.now(),
  monotonicMs: () => performance.now(),
  setTimer: (callback, ms) => startTimer(ms, callback),
};
