import type { SearchArgs, SearchHit, SearchToolResult } from "../contract/search.ts";
import { errorText } from "../contract/error_text.ts";
import { failed, type Outcome, succeeded } from "../contract/outcome.ts";
import * as text from "../contract/texts.ts";
import type { CallContext } from "./call_context.ts";
import { outputBudget, parseStreams } from "./call_checks.ts";
import type { ExecutionManager } from "./manager.ts";
import {
  type Searcher,
  SearchError,
  type SearchMatch,
  type SearchRequest,
  type SearchResult,
} from "./search.ts";

/** The `search` tool's operation: one execution's whole retained history, session-scoped. */
export class ExecutionSearch {
  #manager: ExecutionManager;
  #searcher: Searcher;
  #capBytes: number;

  /** `capBytes` is `max_output_bytes`, the default and largest budget of one answer. */
  constructor(manager: ExecutionManager, searcher: Searcher, capBytes: number) {
    this.#manager = manager;
    this.#searcher = searcher;
    this.#capBytes = capBytes;
  }

  /** Finds matching lines; a bad pattern, cursor or limit is a refusal that says what to do. */
  async search(args: SearchArgs, context: CallContext): Promise<Outcome<SearchToolResult>> {
    const id = args.execution_id;
    const refuse = (error: string) => failed({ execution_id: id, error });
    const execution = this.#manager.lookup(id, context);
    if (execution === null) return refuse(text.unknownId(id));
    const streams = parseStreams(args.streams);
    if (streams === null) return refuse(text.invalidStreams(args.streams ?? ""));
    let found: SearchResult;
    try {
      found = await this.#searcher.search(execution.log, this.#request(args, streams));
    } catch (error) {
      if (error instanceof SearchError) return refuse(error.message);
      throw new Error(`Search failed: ${errorText(error)}`);
    }
    const redact = (line: string) => execution.redaction.text(line);
    const result: SearchToolResult = {
      execution_id: id,
      status: execution.status,
      matches: found.matches.map((match) => hitOf(match, redact)),
      next_cursor: found.nextCursor,
      complete: found.complete,
      stopped_by: found.stoppedBy,
      evicted: found.evicted,
      scanned_bytes: found.scannedBytes,
      latest_seq: found.latestSeq,
    };
    const hint = searchHint(found);
    if (hint !== null) result.hint = hint;
    return succeeded(result);
  }

  /** The searcher's request for the tool's arguments, the byte budget within `max_output_bytes`. */
  #request(args: SearchArgs, streams: SearchRequest["streams"]): SearchRequest {
    return {
      pattern: args.pattern,
      fixedString: args.fixed_string ?? false,
      ignoreCase: args.ignore_case ?? false,
      streams,
      cursor: args.cursor ?? null,
      contextLines: args.context_lines,
      maxMatches: args.max_matches,
      maxOutputBytes: outputBudget(args.max_output_bytes, this.#capBytes),
    };
  }
}

function hitOf(match: SearchMatch, redact: (line: string) => string): SearchHit {
  return {
    stream: match.stream,
    seq: match.seq,
    line_seq: match.lineSeq,
    line: match.line,
    text: redact(match.text),
    before: match.before.map(redact),
    after: match.after.map(redact),
  };
}

function searchHint(found: SearchResult): string | null {
  if (found.slowPattern) {
    return "The pattern backtracks too much to finish in time; simplify it (avoid nested quantifiers) or use fixed_string";
  }
  if (found.stoppedBy === null) return null;
  const why = found.stoppedBy === "time_limit"
    ? "The search ran out of time"
    : found.stoppedBy === "max_matches"
    ? "More lines may match"
    : "The matches filled max_output_bytes";
  return `${why}; pass cursor=${JSON.stringify(found.nextCursor)} to continue`;
}
