import type { Chunk } from "./ring_buffer.ts";

/** Which setting evicted output: the ring buffer, a spool cap, or the disk's free space. */
export type EvictionCause =
  | "max_buffer_bytes"
  | "max_spool_bytes"
  | "max_spool_total_bytes"
  | "free_space";

/**
 * The retention of one stream as `OutputLog` uses it: a `RingBuffer` alone (the contract's
 * retention, `spool: off`) or a `SpooledStream` (the ring buffer as a cache of a disk spool).
 */
export interface StreamStore {
  /** Bytes ever appended, evicted ones included. */
  readonly bytesCaptured: number;
  /** One past the highest evicted position, or null if nothing was evicted. */
  readonly watermark: number | null;
  /** Appends `bytes` at positions `[startSeq, startSeq + length)`, taking ownership of them. */
  append(startSeq: number, bytes: Uint8Array): void;
  /**
   * Retained chunks in position order that end after `seq`, the first trimmed to begin at `seq`;
   * `sizeHint` is how many bytes the caller expects to take (disk reads are sized by it). A
   * chunk read from disk may share a buffer: its bytes are valid until the iteration advances,
   * so a caller copies (or decodes) what it keeps.
   */
  chunksFrom(seq: number, sizeHint?: number): Iterable<Chunk>;
  /** Retained chunks, newest first (valid until the iteration advances, as above). */
  chunksNewestFirst(): Iterable<Chunk>;
}
