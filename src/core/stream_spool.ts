import { capWatermark } from "./cap_watermark.ts";
import type { Chunk } from "./ring_buffer.ts";
import { segmentChunksBefore, segmentChunksFrom } from "./segment_chunks.ts";
import { segmentLineFeedsBefore } from "./segment_line_feeds.ts";
import type { SpoolHost } from "./spool_host.ts";
import {
  type Checkpoint,
  CHECKPOINT_BYTES,
  HEADER_BYTES,
  type SegmentOwner,
  SegmentReader,
  SpoolSegment,
  writeHeader,
} from "./spool_segment.ts";
import {
  MAX_READ_BYTES,
  MIN_READ_BYTES,
  PAGE_BLOCK_BYTES,
  STAGING_BYTES,
  type StreamSpoolOptions,
} from "./stream_spool_options.ts";
import { countLineFeeds } from "./utf8.ts";

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
    if (bytes.length === 0 || this.#closed) return;
    const at = { seq: startSeq, offset: this.#endOffset, lines: this.#lineFeeds };
    this.#endOffset += bytes.length;
    this.#endSeq = startSeq + bytes.length;
    this.#lineFeeds += lineFeeds;
    this.#staging ??= new Uint8Array(this.#stagingBytes);
    if (this.#continuesRecord(startSeq, bytes.length)) this.#extendRecord(bytes);
    else this.#startRecord(bytes, at);
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
    const reader = (segment: SpoolSegment) => this.#reader(segment, blockBytes);
    yield* segmentChunksFrom(this.#segments, reader, seq, endSeq, blockBytes);
  }

  /** Chunks of `[floorSeq, endSeq)` on disk, newest first, each at most a page block. */
  *chunksBefore(endSeq: number, floorSeq: number): Generator<Chunk> {
    this.flush();
    const blockBytes = this.#blockBytes;
    const reader = (segment: SpoolSegment) => this.#reader(segment, blockBytes);
    yield* segmentChunksBefore(this.#segments, reader, endSeq, floorSeq, blockBytes);
  }

  /** Line feeds of the stream before position `seq`. */
  lineFeedsBefore(seq: number): number {
    this.flush();
    const reader = (segment: SpoolSegment) => this.#reader(segment, this.#blockBytes);
    const lines = segmentLineFeedsBefore(this.#segments, reader, seq, this.#blockBytes);
    return lines ?? this.#lineFeeds;
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
    const reader = (segment: SpoolSegment) => this.#reader(segment, this.#blockBytes);
    const ends = { endSeq: this.#endSeq, droppedEndSeq: this.#droppedEndSeq };
    return capWatermark(this.#segments, reader, cut, ends);
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

  /** Whether `length` bytes at `seq` go on the record open in the staging buffer. */
  #continuesRecord(seq: number, length: number): boolean {
    return this.#active !== null && this.#recordAt >= 0 &&
      this.#recordSeq + this.#recordLength === seq && this.#staged + length <= this.#stagingBytes;
  }

  #extendRecord(bytes: Uint8Array): void {
    this.#staging!.set(bytes, this.#staged);
    this.#staged += bytes.length;
    this.#recordLength += bytes.length;
    if (this.#recordCheckpoint !== null) this.#recordCheckpoint.length = this.#recordLength;
    this.#extend(this.#active!, this.#recordSeq + this.#recordLength);
  }

  /** A new record at `at`: staged behind its header, or written at once if larger than staging. */
  #startRecord(bytes: Uint8Array, at: { seq: number; offset: number; lines: number }): void {
    this.#closeRecord();
    const { length } = bytes;
    const needs = HEADER_BYTES + length;
    if (this.#staged + needs > this.#stagingBytes) this.flush();
    const segment = this.#segmentFor(needs, at.seq, at.offset);
    const fileAt = segment.fileBytes + this.#staged;
    const checkpoint = segment.noteRecord({ fileAt, ...at, length }, this.#checkpointBytes);
    this.#extend(segment, at.seq + length);
    if (needs > this.#stagingBytes) {
      const header = new Uint8Array(HEADER_BYTES);
      writeHeader(header, 0, at.seq, length);
      return this.#write(segment, [header, bytes]);
    }
    this.#recordAt = this.#staged;
    this.#recordSeq = at.seq;
    this.#recordLength = length;
    this.#recordCheckpoint = checkpoint;
    this.#staging!.set(bytes, this.#staged + HEADER_BYTES);
    this.#staged += needs;
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
