/** The `search` tool's arguments and result (a yieldshell tool beside the contract's seven). */
import type { ExecutionStatus, RefusedCall } from "./results.ts";

export interface SearchArgs {
  execution_id: string;
  pattern: string;
  fixed_string?: boolean;
  ignore_case?: boolean;
  streams?: string;
  cursor?: string | null;
  context_lines?: number;
  max_matches?: number;
  max_output_bytes?: number | null;
}

/** One matching line, at its first match. */
export interface SearchHit {
  stream: "stdout" | "stderr";
  /** Position of the match's first byte (a `since_seq` for `read`). */
  seq: number;
  /** Position of the line's first byte. */
  line_seq: number;
  /** 1-based line number in its stream; null when older lines were evicted uncounted. */
  line: number | null;
  text: string;
  before: string[];
  after: string[];
}

export type SearchToolResult =
  | RefusedCall
  | {
    execution_id: string;
    status: ExecutionStatus;
    matches: SearchHit[];
    /** Pass as `cursor` to continue; after a complete search it finds only newer output. */
    next_cursor: string;
    /** The whole retained output of the selected streams was searched. */
    complete: boolean;
    stopped_by: "max_matches" | "max_output_bytes" | "time_limit" | null;
    evicted: boolean;
    scanned_bytes: number;
    latest_seq: number;
    hint?: string;
  };
