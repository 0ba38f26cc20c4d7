import { errorText } from "../contract/error_text.ts";
import { type Chunk, RingBuffer } from "./ring_buffer.ts";
import { countLineFeeds } from "./utf8.ts";
import type { EvictionCause, StreamStore } from "./stream_store.ts";
import type { StreamSpool } from "./stream_spool.ts";

/** Options for {@linkcode SpooledStream}. */
export interface SpooledStreamOptions {
  /** `max_buffer_bytes`: the newest bytes kept in memory (at most `maxBytes`). */
  cacheBytes: number;
  /** `max_spool_bytes`: the newest bytes retained in all. */
  maxBytes: number;
  /** Where bytes that leave the memory cache go. */
  spool: StreamSpool;
}

/**
 * One stream whose ring buffer is a cache of the newest bytes and whose older bytes live in a
 * disk spool. Retention is the ring buffer's rule with `maxBytes` for a capacity (the newest
 * `maxBytes` bytes from a character boundary), so cursors, `evicted` and watermarks behave byte
 * for byte as an all-memory buffer that large would; the server's total may drop older bytes in
 * whole segments. If the spool fails (a full disk), the stream carries on with the cache alone.
 */
export class SpooledStream implements StreamStore {
  #ring: RingBuffer;
  #maxBytes: number;
  #spool: StreamSpool | null;
  #problem: string | null = null;
  #spilledLineFeeds = 0;
  #cached: { key: string; watermark: number | null; cause: EvictionCause | null } | null = null;

  constructor(options: SpooledStreamOptions) {
    const { cacheBytes, maxBytes, spool } = options;
    this.#maxBytes = maxBytes;
    this.#spool = spool;
    this.#ring = new RingBuffer({
      capacityBytes: Math.min(cacheBytes, maxBytes),
      onEvict: (startSeq, bytes) => this.#spill(startSeq, bytes),
    });
  }

  get bytesCaptured(): number {
    return this.#ring.bytesCaptured;
  }

  /** Why the stream stopped spooling (and keeps only the cache), or null. */
  get problem(): string | null {
    return this.#problem;
  }

  get watermark(): number | null {
    return this.#retention().watermark;
  }

  /** Which setting evicted the bytes below the watermark, or null if none were. */
  get evictionCause(): EvictionCause | null {
    return this.#retention().cause;
  }

  append(startSeq: number, bytes: Uint8Array): void {
    this.#ring.append(startSeq, bytes);
    const spool = this.#spool;
    if (spool === null) return;
    const cut = this.#ring.bytesCaptured - this.#maxBytes;
    if (cut > 0 && spool.endOffset > 0) this.#guard(() => spool.trimBelow(cut), undefined);
  }

  /** Writes staged bytes, so that reads of several streams find their files settled. */
  prepareRead(): void {
    const spool = this.#spool;
    if (spool !== null) this.#guard(() => spool.flush(), undefined);
  }

  *chunksFrom(seq: number, sizeHint?: number): Generator<Chunk> {
    const start = Math.max(seq, this.watermark ?? 0);
    const ringFirst = this.#ring.firstSeq;
    const spool = this.#spool;
    if (spool !== null && (ringFirst === null || start < ringFirst)) {
      const end = ringFirst ?? Infinity;
      if (start < (spool.endSeq ?? 0)) {
        const disk = spool.chunksFrom(start, end, sizeHint);
        while (true) {
          const next = this.#guard(() => disk.next(), null);
          if (next === null || next.done) break;
          yield next.value;
        }
      }
    }
    yield* this.#ring.chunksFrom(Math.max(start, this.watermark ?? 0));
  }

  *chunksNewestFirst(): Generator<Chunk> {
    const floor = this.watermark ?? 0;
    for (const chunk of this.#ring.chunksNewestFirst()) {
      if (chunk.startSeq + chunk.bytes.length <= floor) return;
      yield chunk;
    }
    const spool = this.#spool;
    const ringFirst = this.#ring.firstSeq;
    if (spool === null || spool.endSeq === null) return;
    const disk = spool.chunksBefore(ringFirst ?? spool.endSeq, floor);
    while (true) {
      const next = this.#guard(() => disk.next(), null);
      if (next === null || next.done) return;
      yield next.value;
    }
  }

  /** Line feeds before position `seq` (a retained position or the end), counted at capture. */
  lineFeedsBefore(seq: number): number {
    const ringFirst = this.#ring.firstSeq;
    if (ringFirst !== null && seq >= ringFirst) {
      let lines = this.#spilledLineFeeds;
      for (const chunk of this.#ring.chunksFrom(ringFirst)) {
        if (chunk.startSeq >= seq) break;
        const end = Math.min(chunk.bytes.length, seq - chunk.startSeq);
        lines += countLineFeeds(chunk.bytes.subarray(0, end));
      }
      return lines;
    }
    const spool = this.#spool;
    if (spool === null) return this.#spilledLineFeeds;
    return this.#guard(() => spool.lineFeedsBefore(seq), null) ?? this.#spilledLineFeeds;
  }

  /** Deletes the spooled files; the cache stays readable. */
  close(): void {
    this.#spool?.close();
    this.#spool = null;
    this.#cached = null;
  }

  #spill(startSeq: number, bytes: Uint8Array): void {
    const lineFeeds = countLineFeeds(bytes);
    this.#spilledLineFeeds += lineFeeds;
    const spool = this.#spool;
    if (spool !== null) this.#guard(() => spool.append(startSeq, bytes, lineFeeds), undefined);
  }

  #retention(): { watermark: number | null; cause: EvictionCause | null } {
    const spool = this.#spool;
    const ring = this.#ring;
    if (spool === null) {
      return {
        watermark: ring.watermark,
        cause: ring.watermark === null ? null : "max_buffer_bytes",
      };
    }
    const total = ring.bytesCaptured;
    const key = `${total}:${spool.generation}`;
    if (this.#cached?.key === key) return this.#cached;
    const cut = total - this.#maxBytes;
    let capWatermark: number | null = null;
    if (cut > 0) {
      // The cut lies in the cache only when the cache is as large as the cap.
      capWatermark = cut >= spool.endOffset
        ? ring.watermark
        : this.#guard(() => spool.capWatermark(cut), null);
      if (this.#spool === null) return this.#retention();
    }
    const totalWatermark = spool.totalWatermark;
    const result = totalWatermark !== null && totalWatermark > (capWatermark ?? 0)
      ? { key, watermark: totalWatermark, cause: spool.totalCause }
      : {
        key,
        watermark: capWatermark,
        cause: capWatermark === null ? null : "max_spool_bytes" as const,
      };
    this.#cached = result;
    return result;
  }

  /** Runs a spool operation; on any failure the stream stops spooling and keeps its cache. */
  #guard<T, F>(operation: () => T, fallback: F): T | F {
    try {
      return operation();
    } catch (error) {
      this.#fail(error);
      return fallback;
    }
  }

  #fail(error: unknown): void {
    const spool = this.#spool;
    if (spool === null) return;
    this.#problem = errorText(error);
    this.#spool = null;
    this.#cached = null;
    try {
      spool.close();
    } catch {
      // The files may be gone already.
    }
  }
}
