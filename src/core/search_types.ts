import type { StreamName, StreamSelection } from "./output_log.ts";

/** What to find in one execution's output. */
export interface SearchRequest {
  /** A JavaScript regular expression, or plain text with `fixedString`. */
  pattern: string;
  /** @default false */
  fixedString?: boolean;
  /** @default false */
  ignoreCase?: boolean;
  /** @default "both" */
  streams?: StreamSelection;
  /** `nextCursor` of an earlier search with the same streams; null starts at the oldest byte. */
  cursor?: string | null;
  /** Lines of context before and after each matching line, 0 to 10. @default 2 */
  contextLines?: number;
  /** Most matching lines returned, 1 to 1000. @default 50 */
  maxMatches?: number;
  /** Budget for the text of the matches and their context (one match is always returned). */
  maxOutputBytes: number;
}

/** One matching line (one per line, at its first match). */
export interface SearchMatch {
  stream: StreamName;
  /** Position of the match's first byte. */
  seq: number;
  /** Position of the line's first byte. */
  lineSeq: number;
  /** 1-based line number in its stream, or null when evicted lines were not counted. */
  line: number | null;
  /** The line without its newline, cut around the match when longer than 500 characters. */
  text: string;
  before: string[];
  after: string[];
}

/** Why a search returned before the end of the retained output. */
export type SearchStop = "max_matches" | "max_output_bytes" | "time_limit";

/** The matches of one call and where the next call continues. */
export interface SearchResult {
  /** In position order within the call. */
  matches: SearchMatch[];
  /** Pass as `cursor` to continue; after a complete search it finds only newer output. */
  nextCursor: string;
  /** The whole retained output of the selected streams was searched. */
  complete: boolean;
  stoppedBy: SearchStop | null;
  /** One block ran past the time limit: the pattern backtracks too much to finish. */
  slowPattern: boolean;
  /** Output older than where the search started was evicted (it could not be searched). */
  evicted: boolean;
  /** Bytes searched by this call. */
  scannedBytes: number;
  latestSeq: number;
}
