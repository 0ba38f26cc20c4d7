import type { SpoolHost } from "./spool_host.ts";

/** Bytes staged in memory before one write; larger appends are written directly. */
export const STAGING_BYTES = 131_072;
/** Largest chunk a page read takes from disk at once (and its read block). */
export const PAGE_BLOCK_BYTES = 65_536;
/** Bounds of a read sized by the caller's hint. */
export const MIN_READ_BYTES = 4_096;
export const MAX_READ_BYTES = 4 * 1_048_576;

/** Options for a `StreamSpool`. */
export interface StreamSpoolOptions {
  host: SpoolHost;
  /** File name prefix, e.g. `stdout`. */
  name: string;
  /** A new segment starts once the current one holds this many file bytes. */
  segmentBytes: number;
  /** Spacing of the in-memory index of record starts. @default 64 KiB */
  checkpointBytes?: number;
  /** Staging buffer; larger appends are written directly. @default 128 KiB */
  stagingBytes?: number;
  /** Read block and largest chunk of page reads. @default 64 KiB */
  blockBytes?: number;
}
