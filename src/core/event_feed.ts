import { EventHub } from "./event_hub.ts";
import type { Execution } from "./execution.ts";
import type { ExecutionEvent, ExecutionFeed, ExecutionListing } from "./execution_events.ts";
import type { PageRequest } from "./page.ts";

/** The newest output an execution's resource shows (out-of-band: no cursor moves). */
export const VIEW_PAGE: PageRequest = {
  sinceSeq: null,
  tailLines: 50,
  streams: "both",
  maxOutputBytes: 8_192,
  truncation: "head",
};

/** How the feed reaches the records it reports on (the manager supplies them). */
export interface FeedSources {
  /** The records of one session, oldest first. */
  records(owner: string): Execution[];
  /** Status and newest output of one record, already redacted. */
  view(execution: Execution): Record<string, unknown>;
}

/**
 * The manager's execution events for the pushes: started, output (per append), ended and
 * removed, for every session; each session's pushes filter by owner.
 */
export class EventFeed implements ExecutionFeed {
  #hub = new EventHub<ExecutionEvent>();
  #sources: FeedSources;
  #backgrounded = new WeakSet<Execution>();
  #untrack = new WeakMap<Execution, () => void>();

  constructor(sources: FeedSources) {
    this.#sources = sources;
  }

  subscribe(listener: (event: ExecutionEvent) => void): () => void {
    return this.#hub.subscribe(listener);
  }

  list(owner: string): ExecutionListing[] {
    return this.#sources.records(owner).reverse().map((execution) => ({
      id: execution.id,
      label: label(execution),
      status: execution.status,
    }));
  }

  view(owner: string, id: string): Record<string, unknown> | null {
    const execution = this.#sources.records(owner).find((record) => record.id === id);
    return execution === undefined ? null : this.#sources.view(execution);
  }

  /** Reports a new record, then its output and its end. */
  started(execution: Execution): void {
    const { owner, id } = execution;
    const unsubscribe = execution.appended.subscribe(() =>
      this.#hub.emit({ type: "output", owner, id })
    );
    this.#untrack.set(execution, unsubscribe);
    this.#hub.emit({ type: "started", owner, id });
    execution.finished.then(() => {
      unsubscribe();
      this.#hub.emit({
        type: "ended",
        owner,
        id,
        status: execution.status,
        exitCode: execution.exitCode,
        signal: execution.signal,
        backgrounded: this.#backgrounded.has(execution),
        label: label(execution),
      });
    });
  }

  /** `execute` returned it backgrounded: nobody holds an inline result, so its end is news. */
  backgrounded(execution: Execution): void {
    this.#backgrounded.add(execution);
  }

  removed(execution: Execution): void {
    this.#untrack.get(execution)?.();
    this.#hub.emit({ type: "removed", owner: execution.owner, id: execution.id });
  }
}

/** The name, else the command, redacted as the output is. */
function label(execution: Execution): string {
  return execution.redaction.text(execution.name ?? execution.command);
}
