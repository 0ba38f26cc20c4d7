import type { OutputLog } from "./output_log.ts";
import { RegexWorker } from "./regex_worker.ts";
import { SearchCall } from "./search_call.ts";
import type { SearchRequest, SearchResult } from "./search_types.ts";

export { SearchError } from "./search_cursor.ts";
export type { SearchMatch, SearchRequest, SearchResult, SearchStop } from "./search_types.ts";

/** Options for {@linkcode Searcher}. */
export interface SearcherOptions {
  /** Time one call may take before it returns what it found and a cursor. @default 5000 */
  timeLimitMs?: number;
  /** Bytes matched at once (whole lines). @default 1 MiB */
  blockBytes?: number;
}

/**
 * Searches the retained output of executions (disk spool and memory cache alike) for a regular
 * expression or a fixed string, in blocks of whole lines, within a time limit. Matching runs in
 * a worker thread (terminated when a block runs past the limit) while the next block is read;
 * the server keeps one `Searcher` and closes it at shutdown.
 */
export class Searcher {
  #regex = new RegexWorker();
  #timeLimitMs: number;
  #blockBytes: number;

  constructor(options: SearcherOptions = {}) {
    const { timeLimitMs = 5_000, blockBytes = 1_048_576 } = options;
    this.#timeLimitMs = timeLimitMs;
    this.#blockBytes = Math.max(16, blockBytes);
  }

  /** Finds matching lines; rejects with `SearchError` for a bad pattern, cursor or limit. */
  async search(log: OutputLog, request: SearchRequest): Promise<SearchResult> {
    await this.#regex.ready();
    const call = new SearchCall(log, request, {
      regex: this.#regex,
      deadline: performance.now() + this.#timeLimitMs,
      blockBytes: this.#blockBytes,
    });
    return await call.run();
  }

  /** Ends the worker thread (if started); idempotent. */
  close(): void {
    this.#regex.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
