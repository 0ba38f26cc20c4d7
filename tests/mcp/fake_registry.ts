import type { ExecutionStatus } from "../../src/core/execution.ts";
import type {
  ExecutionEvent,
  ExecutionFeed,
  ExecutionListing,
} from "../../src/core/execution_events.ts";
import { EventHub } from "../../src/core/event_hub.ts";

interface Record {
  owner: string;
  id: string;
  label: string;
  status: ExecutionStatus;
  exitCode: number | null;
  output: string;
}

/** An execution registry in memory: tests start, feed and end executions by hand. */
export class FakeRegistry implements ExecutionFeed {
  readonly hub = new EventHub<ExecutionEvent>();
  #records = new Map<string, Record>();

  subscribe(listener: (event: ExecutionEvent) => void): () => void {
    return this.hub.subscribe(listener);
  }

  list(owner: string): ExecutionListing[] {
    return [...this.#records.values()].filter((record) => record.owner === owner).reverse()
      .map(({ id, label, status }) => ({ id, label, status }));
  }

  view(owner: string, id: string) {
    const record = this.#records.get(id);
    if (record === undefined || record.owner !== owner) return null;
    return {
      execution_id: id,
      status: record.status,
      exit_code: record.exitCode,
      stdout_tail: record.output,
    };
  }

  start(owner: string, id: string, label = `sleep 1 # ${id}`): void {
    this.#records.set(id, { owner, id, label, status: "running", exitCode: null, output: "" });
    this.hub.emit({ type: "started", owner, id });
  }

  output(id: string, text: string): void {
    const record = this.#records.get(id)!;
    record.output += text;
    this.hub.emit({ type: "output", owner: record.owner, id });
  }

  end(id: string, exitCode: number, options: { backgrounded?: boolean } = {}): void {
    const record = this.#records.get(id)!;
    record.status = "completed";
    record.exitCode = exitCode;
    this.hub.emit({
      type: "ended",
      owner: record.owner,
      id,
      status: "completed",
      exitCode,
      signal: null,
      backgrounded: options.backgrounded ?? true,
      label: record.label,
    });
  }

  remove(id: string): void {
    const record = this.#records.get(id)!;
    this.#records.delete(id);
    this.hub.emit({ type: "removed", owner: record.owner, id });
  }
}
