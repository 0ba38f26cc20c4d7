import type { TimerClock } from "../../src/core/clock.ts";

/** A clock that moves only when the test says so; due timers run in order inside `advance`. */
export class ManualClock implements TimerClock {
  #now = 0;
  #timers: { due: number; order: number; callback: () => void }[] = [];
  #order = 0;

  nowMs(): number {
    return this.#now;
  }

  monotonicMs(): number {
    return this.#now;
  }

  setTimer(callback: () => void, ms: number): () => void {
    const timer = { due: this.#now + Math.max(0, ms), order: this.#order++, callback };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((other) => other !== timer);
    };
  }

  /** Timers not yet run or cancelled. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, running each timer that falls due on the way. */
  advance(ms: number): void {
    const target = this.#now + ms;
    while (true) {
      const due = this.#timers.filter((timer) => timer.due <= target)
        .sort((a, b) => a.due - b.due || a.order - b.order)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((timer) => timer !== due);
      this.#now = due.due;
      due.callback();
    }
    this.#now = target;
  }
}
