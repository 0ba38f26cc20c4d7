import type { StreamName } from "./output_log.ts";
import type { BlockQuery, BlockResult } from "./search_block.ts";

/** A run of captured bytes of one stream: valid UTF-8 of whole characters. */
export interface SourceChunk {
  readonly stream: StreamName;
  /** Position of the first byte (positions are shared by both streams). */
  readonly seq: number;
  readonly bytes: Uint8Array;
}

/** What the condition watcher reads of one execution's output. */
export interface OutputSource {
  /** One past the newest captured byte of either stream. */
  readonly latestSeq: number;
  /** Retained chunks of `stream` in order that end after `seq`, the first trimmed to start at `seq`. */
  chunksFrom(stream: StreamName, seq: number): Iterable<SourceChunk>;
  /** Calls `listener` after each append; returns the function that unsubscribes. */
  onAppend(listener: (chunk: SourceChunk) => void): () => void;
  /** Clock time of the newest output, or of the start while there is none. */
  lastOutputAt(): number;
  /** Whether no live work remains (then `exited` has settled or is about to). */
  readonly ended: boolean;
  /** Settles once no live work remains and all output is captured. */
  readonly exited: Promise<void>;
}

/** A regular expression as the watcher runs it. */
export interface RegexSpec {
  source: string;
  flags: string;
}

/** How one bounded match attempt ended. */
export type RegexOutcome =
  | { kind: "match"; index: number; text: string }
  | { kind: "none" }
  | { kind: "timeout"; deadlineMs: number }
  | { kind: "error"; message: string };

/**
 * Runs regular expressions off the main thread, each task within a deadline: `until`'s match
 * attempts and search's blocks ({@linkcode RegexWorker} in regex_worker.ts implements it).
 */
export interface RegexRunner {
  exec(spec: RegexSpec, text: string): Promise<RegexOutcome>;
  /** Gets ready for attempts soon (a worker takes tens of milliseconds to start). */
  warm(): void;
  /** Settles once attempts can start at once, so a time limit counts matching only. */
  ready(): Promise<void>;
  /** Matches one search block by `deadline` (a `performance.now()` time), or "timeout". */
  matchBlock(query: BlockQuery, deadline: number): Promise<BlockResult | "timeout">;
}

/** Connects to loopback ports (src/platform implements it; it needs net permission). */
export interface PortProbe {
  /** Whether a TCP connection to `host`:`port` succeeds now; the connection is closed at once. */
  accepts(host: "127.0.0.1" | "::1", port: number): Promise<boolean>;
  /** Why `host` cannot be probed (a missing permission), or null. */
  unavailable(host: "127.0.0.1" | "::1"): string | null;
}
