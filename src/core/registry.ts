import type { Execution } from "./execution.ts";
import { expiredRecords, type RetentionLimits } from "./retention.ts";

/** The executions of every session, by id, in start order. */
export class ExecutionRegistry {
  #executions = new Map<string, Execution>();
  #onRemove: (execution: Execution) => void;

  constructor(options: { onRemove?: (execution: Execution) => void } = {}) {
    this.#onRemove = options.onRemove ?? (() => {});
  }

  /** Every record, oldest first. */
  values(): IterableIterator<Execution> {
    return this.#executions.values();
  }

  has(id: string): boolean {
    return this.#executions.has(id);
  }

  /** The record of `id` if `owner` started it; other sessions cannot see it. */
  find(id: string, owner: string): Execution | null {
    const execution = this.#executions.get(id);
    return execution === undefined || execution.owner !== owner ? null : execution;
  }

  /** An id no record has: 12 hex digits. */
  newId(): string {
    while (true) {
      const id = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
      if (!this.#executions.has(id)) return id;
    }
  }

  add(execution: Execution): void {
    this.#executions.set(execution.id, execution);
  }

  /** Forgets a record and releases what it holds. */
  remove(execution: Execution): void {
    execution.dispose();
    this.#executions.delete(execution.id);
    this.#onRemove(execution);
  }

  /** Records with live work, across all sessions. */
  get liveCount(): number {
    let count = 0;
    for (const execution of this.#executions.values()) if (execution.live) count++;
    return count;
  }

  /** Records of `owner` with live work. */
  liveCountOf(owner: string): number {
    let count = 0;
    for (const execution of this.#executions.values()) {
      if (execution.owner === owner && execution.live) count++;
    }
    return count;
  }

  /** Whether `owner` still has a record with live work. */
  hasLiveWork(owner: string): boolean {
    for (const execution of this.#executions.values()) {
      if (execution.owner === owner && execution.live) return true;
    }
    return false;
  }

  /** Age, then count, retention of terminal records (running ones are never reaped). */
  reap(limits: RetentionLimits, nowS: number): void {
    for (const execution of expiredRecords(this.#executions.values(), limits, nowS)) {
      this.remove(execution);
    }
  }
}
