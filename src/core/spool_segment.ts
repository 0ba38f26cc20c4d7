import type { SpoolFile } from "./spool_port.ts";

/** Bytes of a record header: the position of the record's first byte (float64), its length (uint32). */
export const HEADER_BYTES = 12;
/** A checkpoint is kept at the first record starting this many file bytes after the previous one. */
export const CHECKPOINT_BYTES = 65_536;

/** A checkpoint: where a record starts in the file and in the stream. */
export interface Checkpoint {
  /** File offset of the record's header. */
  fileAt: number;
  /** Position of the record's first byte. */
  seq: number;
  /** Stream offset of the record's first byte. */
  offset: number;
  /** Line feeds of the stream before the record. */
  lines: number;
}

/** What evicts a segment of another stream to make room: the stream that owns it. */
export interface SegmentOwner {
  /** Drops `segment` (its oldest) because the server's total did not allow it. */
  evictForTotal(segment: SpoolSegment, cause: "max_spool_total_bytes" | "free_space"): void;
}

/**
 * One append-only segment file of a stream: records of (position, length, bytes), a sparse
 * index of checkpoints, and the extents of everything appended to it (staged bytes included).
 */
export class SpoolSegment {
  readonly path: string;
  readonly owner: SegmentOwner;
  /** Stream offset of its first byte. */
  readonly startOffset: number;
  /** Position of its first byte. */
  readonly firstSeq: number;
  /** One past its last byte, and the stream offset there (staged bytes included). */
  endSeq: number;
  endOffset: number;
  /** Bytes written to the file. */
  fileBytes = 0;
  /** Whether the file exists (it is made at the first write). */
  created = false;
  deleted = false;
  #checkpoints: Checkpoint[] = [];

  constructor(path: string, owner: SegmentOwner, firstSeq: number, startOffset: number) {
    this.path = path;
    this.owner = owner;
    this.firstSeq = firstSeq;
    this.endSeq = firstSeq;
    this.startOffset = startOffset;
    this.endOffset = startOffset;
  }

  /** Records a checkpoint for a record starting at `fileAt` if the previous one is `spacing` away. */
  noteRecord(checkpoint: Checkpoint, spacing: number): void {
    const last = this.#checkpoints.at(-1);
    if (last === undefined || checkpoint.fileAt - last.fileAt >= spacing) {
      this.#checkpoints.push(checkpoint);
    }
  }

  get checkpointCount(): number {
    return this.#checkpoints.length;
  }

  checkpoint(index: number): Checkpoint {
    return this.#checkpoints[index];
  }

  /** Index of the last checkpoint whose `key` is at most `value` (0 when none is). */
  checkpointAt(key: "seq" | "offset", value: number): number {
    const checkpoints = this.#checkpoints;
    let low = 0;
    let high = checkpoints.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (checkpoints[middle][key] <= value) low = middle + 1;
      else high = middle;
    }
    return Math.max(0, low - 1);
  }

  /** File offset where the span of checkpoint `index` ends. */
  spanEnd(index: number): number {
    return this.#checkpoints[index + 1]?.fileAt ?? this.fileBytes;
  }
}

/** A record found in a segment file. */
export interface RecordInfo {
  /** Position of its first byte. */
  seq: number;
  /** Stream offset of its first byte. */
  offset: number;
  /** File offset of its bytes (after the header). */
  payloadAt: number;
  length: number;
}

/** Reads of one segment file through one reusable block, so headers and bytes share reads. */
export class SegmentReader {
  // Looked up at each read: the spool may close idle files between reads.
  #file: () => SpoolFile;
  #fileBytes: number;
  #block: Uint8Array;
  #blockAt = 0;
  #blockLength = 0;

  constructor(file: () => SpoolFile, fileBytes: number, blockBytes: number) {
    this.#file = file;
    this.#fileBytes = fileBytes;
    this.#block = new Uint8Array(blockBytes);
  }

  /** Bytes `[at, at + length)` of the file; the view is valid until the next call. */
  view(at: number, length: number): Uint8Array {
    const end = at + length;
    if (at >= this.#blockAt && end <= this.#blockAt + this.#blockLength) {
      return this.#block.subarray(at - this.#blockAt, end - this.#blockAt);
    }
    if (length > this.#block.length) this.#block = new Uint8Array(length);
    const want = Math.min(this.#block.length, this.#fileBytes - at);
    const count = this.#file().readAt(at, this.#block.subarray(0, want));
    if (count < length) {
      throw new Error(`Spool file ended early: wanted ${length} bytes at ${at}, read ${count}`);
    }
    this.#blockAt = at;
    this.#blockLength = count;
    return this.#block.subarray(0, length);
  }

  /** Records of the span of checkpoint `index`, in file order. */
  *records(segment: SpoolSegment, index: number, toEnd: boolean): Generator<RecordInfo> {
    const start = segment.checkpoint(index);
    const end = toEnd ? segment.fileBytes : segment.spanEnd(index);
    let at = start.fileAt;
    let offset = start.offset;
    while (at < end) {
      const header = this.view(at, HEADER_BYTES);
      const fields = new DataView(header.buffer, header.byteOffset, HEADER_BYTES);
      const seq = fields.getFloat64(0, true);
      const length = fields.getUint32(8, true);
      yield { seq, offset, payloadAt: at + HEADER_BYTES, length };
      at += HEADER_BYTES + length;
      offset += length;
    }
  }
}

/** Writes a record header at `at` of `into`. */
export function writeHeader(into: Uint8Array, at: number, seq: number, length: number): void {
  const fields = new DataView(into.buffer, into.byteOffset + at, HEADER_BYTES);
  fields.setFloat64(0, seq, true);
  fields.setUint32(8, length, true);
}
