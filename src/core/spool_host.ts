import type { SpoolFile } from "./spool_port.ts";
import type { SpoolSegment } from "./spool_segment.ts";

/** What a stream spool needs of the server's spool. */
export interface SpoolHost {
  /** Path of a new segment file of this stream (the execution's directory is made on demand). */
  segmentPath(name: string): string;
  /** Takes a new segment into the server's total, oldest first. */
  register(segment: SpoolSegment): void;
  /** The open file of a segment, created at its first use. */
  fileOf(segment: SpoolSegment): SpoolFile;
  /**
   * Makes room for `bytes` more on disk by evicting the oldest segments server-wide (this
   * stream's included); false when even that is not enough.
   */
  admit(bytes: number): boolean;
  /** What limits the total right now. */
  readonly totalCause: "max_spool_total_bytes" | "free_space";
  /** `bytes` more were written to disk. */
  grew(bytes: number): void;
  /** Closes and deletes a segment's file and takes it out of the total. */
  release(segment: SpoolSegment): void;
  /**
   * A read buffer shared by the streams of this name, for reads up to its size: a chunk read
   * into it is valid until its iteration advances.
   */
  scratch(name: string): Uint8Array;
}
