import type { Chunk } from "./ring_buffer.ts";
import type { SpoolFile } from "./spool_port.ts";
import { skipContinuationBytes, utf8SafePrefixLength } from "./utf8.ts";

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
  /** The record's length (kept current while it grows in the staging buffer). */
  length: number;
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

  /**
   * Records a checkpoint for a record starting at `fileAt` if the previous one is `spacing`
   * away; returns it when kept (its length must follow the record's).
   */
  noteRecord(checkpoint: Checkpoint, spacing: number): Checkpoint | null {
    const last = this.#checkpoints.at(-1);
    if (last !== undefined && checkpoint.fileAt - last.fileAt < spacing) return null;
    this.#checkpoints.push(checkpoint);
    return checkpoint;
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

/**
 * Reads of one segment file in blocks, so that headers and bytes share reads. A block of at most
 * the scratch buffer's size is read into it (no allocation), so a view is valid only until the
 * next read; larger blocks are new buffers.
 */
export class SegmentReader {
  // Looked up at each read: the spool may close idle files between reads.
  #file: () => SpoolFile;
  #fileBytes: number;
  #blockBytes: number;
  #scratch: Uint8Array | null;
  #block: Uint8Array = new Uint8Array(0);
  #blockAt = 0;

  constructor(
    file: () => SpoolFile,
    fileBytes: number,
    blockBytes: number,
    scratch: Uint8Array | null,
  ) {
    this.#file = file;
    this.#fileBytes = fileBytes;
    this.#blockBytes = blockBytes;
    this.#scratch = scratch;
  }

  /** Bytes `[at, at + length)` of the file, read with what follows up to a block. */
  view(at: number, length: number): Uint8Array {
    const end = at + length;
    if (at >= this.#blockAt && end <= this.#blockAt + this.#block.length) {
      return this.#block.subarray(at - this.#blockAt, end - this.#blockAt);
    }
    const want = Math.max(length, Math.min(this.#blockBytes, this.#fileBytes - at));
    const scratch = this.#scratch;
    const block = scratch !== null && want <= scratch.length
      ? scratch.subarray(0, want)
      : new Uint8Array(want);
    const count = this.#file().readAt(at, block);
    if (count < length) {
      throw new Error(`Spool file ended early: wanted ${length} bytes at ${at}, read ${count}`);
    }
    this.#block = block.subarray(0, count);
    this.#blockAt = at;
    return block.subarray(0, length);
  }

  /** Records of the span of checkpoint `index`, in file order. */
  *records(segment: SpoolSegment, index: number, toEnd: boolean): Generator<RecordInfo> {
    const start = segment.checkpoint(index);
    const end = toEnd ? segment.fileBytes : segment.spanEnd(index);
    // The checkpoint knows its record: its header need not be read.
    yield {
      seq: start.seq,
      offset: start.offset,
      payloadAt: start.fileAt + HEADER_BYTES,
      length: start.length,
    };
    let at = start.fileAt + HEADER_BYTES + start.length;
    let offset = start.offset + start.length;
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

/** Pieces of `record` from position `from` to `to`, oldest first, each ending on a character. */
export function* forward(
  reader: SegmentReader,
  record: RecordInfo,
  from: number,
  to: number,
  pieceBytes: number,
): Generator<Chunk> {
  let at = from - record.seq;
  const end = to - record.seq;
  while (at < end) {
    let length = Math.min(end - at, pieceBytes);
    const view = reader.view(record.payloadAt + at, length);
    if (at + length < end) length = utf8SafePrefixLength(view, length) || length;
    yield { startSeq: record.seq + at, bytes: view.subarray(0, length) };
    at += length;
  }
}

/** Pieces of `record` from position `to` back to `from`, newest first, each starting on a character. */
export function* backward(
  reader: SegmentReader,
  record: RecordInfo,
  from: number,
  to: number,
  pieceBytes: number,
): Generator<Chunk> {
  const start = from - record.seq;
  let end = to - record.seq;
  while (end > start) {
    let at = Math.max(start, end - pieceBytes);
    let view = reader.view(record.payloadAt + at, end - at);
    if (at > start) {
      const skip = skipContinuationBytes(view, 0);
      if (skip < view.length) {
        at += skip;
        view = view.subarray(skip);
      }
    }
    yield { startSeq: record.seq + at, bytes: view };
    end = at;
  }
}
