/** Time as the condition watcher and the pushes see it; tests inject a manual one. */
export interface Clock {
  /** Milliseconds on this clock's own scale (only differences matter). */
  now(): number;
  /** Calls `callback` once after `ms`; returns a function that cancels it. */
  setTimer(callback: () => void, ms: number): () => void;
}

/** `setTimeout` silently fires at once above this delay, so longer timers are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The wall clock (`Date.now`, the clock of `Execution.lastOutputAt`) with chained timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, ms) {
    let timer: ReturnType<typeof setTimeout>;
    const due = Date.now() + Math.max(0, ms);
    const arm = () => {
      const left = due - Date.now();
      timer = setTimeout(left > MAX_TIMER_MS ? arm : callback, Math.min(left, MAX_TIMER_MS));
    };
    arm();
    return () => clearTimeout(timer);
  },
};
