import type { TimerClock } from "../core/clock.ts";

/**
 * Per-key throttle of update notifications: the first change is sent at once, later ones at most
 * once per interval (the last change in an interval is sent when it ends, so none is lost).
 */
export class UpdateThrottle {
  #send: (key: string) => void;
  #intervalMs: number;
  #clock: TimerClock;
  #lastSent = new Map<string, number>();
  #pending = new Map<string, () => void>();

  constructor(send: (key: string) => void, options: { intervalMs: number; clock: TimerClock }) {
    this.#send = send;
    this.#intervalMs = options.intervalMs;
    this.#clock = options.clock;
  }

  /** Something changed: send now, or once the interval since the last send has passed. */
  changed(key: string): void {
    if (this.#pending.has(key)) return;
    const last = this.#lastSent.get(key);
    const waitMs = last === undefined ? 0 : last + this.#intervalMs - this.#clock.monotonicMs();
    if (waitMs <= 0) return this.now(key);
    this.#pending.set(key, this.#clock.setTimer(() => this.now(key), waitMs));
  }

  /** Sends at once (an exit is not held back), replacing a pending send. */
  now(key: string): void {
    this.#pending.get(key)?.();
    this.#pending.delete(key);
    this.#lastSent.set(key, this.#clock.monotonicMs());
    this.#send(key);
  }

  /** Drops the key's pending send and history. */
  forget(key: string): void {
    this.#pending.get(key)?.();
    this.#pending.delete(key);
    this.#lastSent.delete(key);
  }

  close(): void {
    for (const cancel of this.#pending.values()) cancel();
    this.#pending.clear();
    this.#lastSent.clear();
  }
}
