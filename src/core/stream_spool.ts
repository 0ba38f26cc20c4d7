import type { Chunk } from "./ring_buffer.ts";
import {
  backward,
  type Checkpoint,
  CHECKPOINT_BYTES,
  forward,
  HEADER_BYTES,
  type RecordInfo,
  type SegmentOwner,
  SegmentReader,
  SpoolSegment,
  writeHeader,
} from "./spool_segment.ts";
import type { SpoolFile } from "./spool_port.ts";
import { countLineFeeds, skipContinuationBytes } from "./utf8.ts";

/** Bytes staged in memory before one write; larger appends are written directly. */
export const STAGING_BYTES = 131_072;
/** Largest chunk a page read takes from disk at once (and its read block). */
export const PAGE_BLOCK_BYTES = 65_536;
/** Bounds of a read sized by the caller's hint. */
const MIN_READ_BYTES = 4_096;
const MAX_READ_BYTES = 4 * 1_048_576;

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

/** Options for {@linkcode StreamSpool}. */
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

/**
 * The on-disk history of one stream of one execution: positioned records in append-only
 * segment files, written through a small staging buffer, dropped in whole segments. It holds
 * a prefix of the stream (what left the ring buffer); stream offsets count the stream's bytes.
 */
export class StreamSpool implements SegmentOwner {
  #host: SpoolHost;
  #name: string;
  #segmentBytes: number;
  #checkpointBytes: number;
  #stagingBytes: number;
  #blockBytes: number;
  #segments: SpoolSegment[] = [];
  #active: SpoolSegment | null = null;
  #nextIndex = 1;
  #staging: Uint8Array | null = null;
  #staged = 0;
  // The record still open in the staging buffer (-1: none), which contiguous appends extend.
  #recordAt = -1;
  #recordSeq = 0;
  #recordLength = 0;
  #recordCheckpoint: Checkpoint | null = null;
  #endSeq: number | null = null;
  #endOffset = 0;
  #lineFeeds = 0;
  #physicalStart = 0;
  // One past the newest byte of the newest dropped segment (whatever dropped it).
  #droppedEndSeq: number | null = null;
  #totalWatermark: number | null = null;
  #totalCause: "max_spool_total_bytes" | "free_space" = "max_spool_total_bytes";
  #generation = 0;
  #closed = false;

  constructor(options: StreamSpoolOptions) {
    this.#host = options.host;
    this.#name = options.name;
    const {
      segmentBytes,
      checkpointBytes = CHECKPOINT_BYTES,
      stagingBytes = STAGING_BYTES,
      blockBytes = PAGE_BLOCK_BYTES,
    } = options;
    this.#segmentBytes = segmentBytes;
    this.#checkpointBytes = checkpointBytes;
    this.#stagingBytes = stagingBytes;
    // A block holds at least one character and one header.
    this.#blockBytes = Math.max(blockBytes, HEADER_BYTES);
  }

  /** One past the newest byte appended, or null when nothing was. */
  get endSeq(): number | null {
    return this.#endSeq;
  }

  /** Bytes appended (the stream offset after the newest). */
  get endOffset(): number {
    return this.#endOffset;
  }

  /** Line feeds appended. */
  get lineFeeds(): number {
    return this.#lineFeeds;
  }

  /** Stream offset of the oldest byte still on disk (or staged). */
  get physicalStart(): number {
    return this.#physicalStart;
  }

  /** One past the newest byte the server's total dropped, or null. */
  get totalWatermark(): number | null {
    return this.#totalWatermark;
  }

  /** What dropped the bytes below `totalWatermark`. */
  get totalCause(): "max_spool_total_bytes" | "free_space" {
    return this.#totalCause;
  }

  /** Changes whenever segments are dropped, so derived values can be cached. */
  get generation(): number {
    return this.#generation;
  }

  /** Appends valid UTF-8 `bytes` at `startSeq`, whose line feeds the caller counted. */
  append(startSeq: number, bytes: Uint8Array, lineFeeds = countLineFeeds(bytes)): void {
    const length = bytes.length;
    if (length === 0 || this.#closed) return;
    const offset = this.#endOffset;
    const linesBefore = this.#lineFeeds;
    this.#endOffset += length;
    this.#endSeq = startSeq + length;
    this.#lineFeeds += lineFeeds;
    const staging = this.#staging ??= new Uint8Array(this.#stagingBytes);
    const active = this.#active;
    if (
      active !== null && this.#recordAt >= 0 && this.#recordSeq + this.#recordLength === startSeq &&
      this.#staged + length <= this.#stagingBytes
    ) {
      staging.set(bytes, this.#staged);
      this.#staged += length;
      this.#recordLength += length;
      if (this.#recordCheckpoint !== null) this.#recordCheckpoint.length = this.#recordLength;
      this.#extend(active, startSeq + length);
      return;
    }
    this.#closeRecord();
    const needs = HEADER_BYTES + length;
    if (this.#staged + needs > this.#stagingBytes) this.flush();
    const segment = this.#segmentFor(needs, startSeq, offset);
    const fileAt = segment.fileBytes + this.#staged;
    const checkpoint = segment.noteRecord(
      { fileAt, seq: startSeq, offset, lines: linesBefore, length },
      this.#checkpointBytes,
    );
    this.#extend(segment, startSeq + length);
    if (needs > this.#stagingBytes) {
      const header = new Uint8Array(HEADER_BYTES);
      writeHeader(header, 0, startSeq, length);
      this.#write(segment, [header, bytes]);
      return;
    }
    this.#recordAt = this.#staged;
    this.#recordSeq = startSeq;
    this.#recordLength = length;
    this.#recordCheckpoint = checkpoint;
    staging.set(bytes, this.#staged + HEADER_BYTES);
    this.#staged += needs;
  }

  /** Writes the staged bytes to disk. */
  flush(): void {
    if (this.#staged === 0 || this.#active === null) return;
    this.#closeRecord();
    const bytes = this.#staging!.subarray(0, this.#staged);
    const segment = this.#active;
    this.#write(segment, [bytes]);
    this.#staged = 0;
  }

  /** Deletes the segments that lie wholly before stream offset `offset` (the per-stream cap). */
  trimBelow(offset: number): void {
    while (this.#segments.length > 0 && this.#segments[0].endOffset <= offset) {
      const segment = this.#segments[0];
      this.#drop(segment);
    }
  }

  /** The server's total needs room: drops this stream's oldest segment. */
  evictForTotal(segment: SpoolSegment, cause: "max_spool_total_bytes" | "free_space"): void {
    if (segment.deleted) return;
    this.#totalWatermark = Math.max(this.#totalWatermark ?? 0, segment.endSeq);
    this.#totalCause = cause;
    this.#drop(segment);
  }

  /** Deletes every file; later appends are ignored. Idempotent. */
  close(): void {
    this.#closed = true;
    this.#staged = 0;
    this.#recordAt = -1;
    this.#staging = null;
    this.#recordCheckpoint = null;
    for (const segment of [...this.#segments]) this.#drop(segment);
  }

  /**
   * Chunks of `[seq, endSeq)` on disk, in position order; reads are sized for `sizeHint` bytes
   * (at least a page block), and no chunk is larger.
   */
  *chunksFrom(seq: number, endSeq: number, sizeHint = this.#blockBytes): Generator<Chunk> {
    const lower = Math.min(MIN_READ_BYTES, this.#blockBytes);
    const blockBytes = Math.max(lower, Math.min(sizeHint, MAX_READ_BYTES));
    this.flush();
    const segments = this.#segments;
    for (let index = this.#segmentIndex("seq", seq); index < segments.length; index++) {
      const segment = segments[index];
      if (segment.firstSeq >= endSeq) return;
      const reader = this.#reader(segment, blockBytes);
      const checkpoint = segment.checkpointAt("seq", seq);
      for (const record of reader.records(segment, checkpoint, true)) {
        if (record.seq >= endSeq) return;
        const recordEnd = record.seq + record.length;
        if (recordEnd <= seq) continue;
        const from = Math.max(seq, record.seq);
        yield* forward(reader, record, from, Math.min(recordEnd, endSeq), blockBytes);
      }
    }
  }

  /** Chunks of `[floorSeq, endSeq)` on disk, newest first, each at most a page block. */
  *chunksBefore(endSeq: number, floorSeq: number): Generator<Chunk> {
    this.flush();
    const segments = this.#segments;
    const last = Math.min(this.#segmentIndex("seq", endSeq - 1), segments.length - 1);
    for (let index = last; index >= 0; index--) {
      const segment = segments[index];
      if (segment.endSeq <= floorSeq) return;
      const reader = this.#reader(segment, this.#blockBytes);
      const top = index === last
        ? segment.checkpointAt("seq", endSeq - 1)
        : segment.checkpointCount - 1;
      for (let span = top; span >= 0; span--) {
        const records = [...reader.records(segment, span, false)];
        for (let r = records.length - 1; r >= 0; r--) {
          const record = records[r];
          const from = Math.max(floorSeq, record.seq);
          const to = Math.min(endSeq, record.seq + record.length);
          if (to <= floorSeq) return;
          if (from < to) yield* backward(reader, record, from, to, this.#blockBytes);
        }
      }
    }
  }

  /** Line feeds of the stream before position `seq`. */
  lineFeedsBefore(seq: number): number {
    this.flush();
    const index = this.#segmentIndex("seq", seq);
    const segment = this.#segments[index];
    if (segment === undefined) return this.#lineFeeds;
    const reader = this.#reader(segment, this.#blockBytes);
    const span = segment.checkpointAt("seq", seq);
    let lines = segment.checkpoint(span).lines;
    for (const record of reader.records(segment, span, true)) {
      if (record.seq >= seq) break;
      const take = Math.min(record.length, seq - record.seq);
      const pieces = forward(reader, record, record.seq, record.seq + take, this.#blockBytes);
      for (const chunk of pieces) {
        lines += countLineFeeds(chunk.bytes);
      }
    }
    return lines;
  }

  /**
   * The watermark of a per-stream cap whose cut is at stream offset `cut`: one past the
   * position of the last byte before the first character boundary at or after `cut`; null when
   * `cut` lies before the bytes still on disk (the total's watermark is higher then).
   */
  capWatermark(cut: number): number | null {
    this.flush();
    if (cut < this.#physicalStart || cut <= 0) return null;
    if (cut >= this.#endOffset) return this.#endSeq;
    const found = this.#recordAtOffset(cut);
    if (found === null) return this.#endSeq;
    const { reader, record } = found;
    const within = cut - record.offset;
    const view = reader.view(record.payloadAt + within, Math.min(4, record.length - within));
    const boundary = cut + skipContinuationBytes(view, 0);
    if (boundary === cut && within === 0) {
      // The cut is a record start: the last byte before it ends the previous record.
      const previous = this.#recordAtOffset(cut - 1);
      if (previous === null) return this.#droppedEndSeq;
      return previous.record.seq + (cut - 1 - previous.record.offset) + 1;
    }
    if (boundary >= record.offset + record.length) return record.seq + record.length;
    return record.seq + (boundary - record.offset);
  }

  #recordAtOffset(offset: number): { reader: SegmentReader; record: RecordInfo } | null {
    const segment = this.#segments[this.#segmentIndex("offset", offset)];
    if (segment === undefined || offset < segment.startOffset) return null;
    const reader = this.#reader(segment, this.#blockBytes);
    for (const record of reader.records(segment, segment.checkpointAt("offset", offset), true)) {
      if (offset < record.offset + record.length) return { reader, record };
    }
    return null;
  }

  /** Index of the first segment ending after `value` (seq or stream offset), or the count. */
  #segmentIndex(key: "seq" | "offset", value: number): number {
    const segments = this.#segments;
    let low = 0;
    let high = segments.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const end = key === "seq" ? segments[middle].endSeq : segments[middle].endOffset;
      if (end <= value) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #reader(segment: SpoolSegment, blockBytes: number): SegmentReader {
    const file = () => this.#host.fileOf(segment);
    return new SegmentReader(file, segment.fileBytes, blockBytes, this.#host.scratch(this.#name));
  }

  #segmentFor(needs: number, firstSeq: number, offset: number): SpoolSegment {
    const active = this.#active;
    const used = active === null ? 0 : active.fileBytes + this.#staged;
    if (active !== null && !active.deleted && (used === 0 || used + needs <= this.#segmentBytes)) {
      return active;
    }
    this.flush();
    const name = `${this.#name}-${String(this.#nextIndex++).padStart(6, "0")}.seg`;
    const segment = new SpoolSegment(this.#host.segmentPath(name), this, firstSeq, offset);
    this.#segments.push(segment);
    this.#active = segment;
    if (this.#segments.length === 1) this.#physicalStart = offset;
    this.#host.register(segment);
    return segment;
  }

  #extend(segment: SpoolSegment, endSeq: number): void {
    segment.endSeq = endSeq;
    segment.endOffset = this.#endOffset;
  }

  #closeRecord(): void {
    if (this.#recordAt < 0) return;
    writeHeader(this.#staging!, this.#recordAt, this.#recordSeq, this.#recordLength);
    this.#recordAt = -1;
    this.#recordCheckpoint = null;
  }

  #write(segment: SpoolSegment, parts: Uint8Array[]): void {
    const total = parts.reduce((sum, part) => sum + part.length, 0);
    const fits = this.#host.admit(total);
    // Making room may have dropped this very segment, staged bytes and all.
    if (segment.deleted) return;
    if (!fits) {
      this.evictForTotal(segment, this.#host.totalCause);
      return;
    }
    const file = this.#host.fileOf(segment);
    for (const part of parts) file.append(part);
    segment.fileBytes += total;
    this.#host.grew(total);
  }

  #drop(segment: SpoolSegment): void {
    const index = this.#segments.indexOf(segment);
    if (index >= 0) this.#segments.splice(index, 1);
    this.#physicalStart = Math.max(this.#physicalStart, segment.endOffset);
    this.#droppedEndSeq = Math.max(this.#droppedEndSeq ?? 0, segment.endSeq);
    if (segment === this.#active) {
      this.#active = null;
      this.#staged = 0;
      this.#recordAt = -1;
      this.#recordCheckpoint = null;
    }
    this.#generation++;
    this.#host.release(segment);
  }
}
