import { skipContinuationBytes } from "./utf8.ts";

/** A run of retained bytes and the position of its first byte. */
export interface Chunk {
  readonly startSeq: number;
  readonly bytes: Uint8Array;
}

/** Options for {@linkcode RingBuffer}. */
export interface RingBufferOptions {
  /** Most bytes retained; older bytes are evicted first. */
  capacityBytes: number;
  /** Receives every evicted run, oldest first, before it is dropped (the spool writes it). */
  onEvict?: (startSeq: number, bytes: Uint8Array) => void;
}

/** Dropped slots at the front of the chunk array tolerated before compacting it. */
const COMPACT_MIN_DROPPED = 64;
/** Placeholder for a dropped slot, so it pins no bytes. */
const DROPPED: Chunk = { startSeq: 0, bytes: new Uint8Array(0) };

/** Byte-capped store of positioned chunks that evicts its oldest bytes on character boundaries. */
export class RingBuffer {
  #capacityBytes: number;
  #onEvict: ((startSeq: number, bytes: Uint8Array) => void) | null;
  // A queue: #chunks[#head] is the oldest retained chunk; slots before #head are dropped.
  #chunks: Chunk[] = [];
  #head = 0;
  #retainedBytes = 0;
  #bytesCaptured = 0;
  #endSeq: number | null = null;
  #watermark: number | null = null;

  constructor(options: RingBufferOptions) {
    const { capacityBytes, onEvict = null } = options;
    if (!Number.isSafeInteger(capacityBytes) || capacityBytes < 0) {
      throw new RangeError(
        `Cannot create a ring buffer as capacityBytes must be a non-negative integer: received ${capacityBytes}`,
      );
    }
    this.#capacityBytes = capacityBytes;
    this.#onEvict = onEvict;
  }

  /** Most bytes retained. */
  get capacityBytes(): number {
    return this.#capacityBytes;
  }

  /** Bytes currently retained. */
  get retainedBytes(): number {
    return this.#retainedBytes;
  }

  /** Bytes ever appended, evicted ones included. */
  get bytesCaptured(): number {
    return this.#bytesCaptured;
  }

  /** One past the highest evicted position, or null if nothing was evicted. */
  get watermark(): number | null {
    return this.#watermark;
  }

  /** Position of the oldest retained byte, or null if nothing is retained. */
  get firstSeq(): number | null {
    return this.#head < this.#chunks.length ? this.#chunks[this.#head].startSeq : null;
  }

  /** Appends `bytes` at positions `[startSeq, startSeq + length)`, taking ownership of them. */
  append(startSeq: number, bytes: Uint8Array): void {
    if (this.#endSeq !== null && startSeq < this.#endSeq) {
      throw new RangeError(
        `Cannot append at position ${startSeq} as positions must increase: append at ${this.#endSeq} or later`,
      );
    }
    if (bytes.length === 0) return;
    this.#chunks.push({ startSeq, bytes });
    this.#retainedBytes += bytes.length;
    this.#bytesCaptured += bytes.length;
    this.#endSeq = startSeq + bytes.length;
    this.#evict();
  }

  /** Retained chunks in position order that end after `seq`, the first trimmed to begin at `seq`. */
  *chunksFrom(seq: number): Generator<Chunk> {
    const chunks = this.#chunks;
    let index = this.#indexAt(seq);
    if (index < chunks.length && chunks[index].startSeq < seq) {
      const { startSeq, bytes } = chunks[index];
      yield { startSeq: seq, bytes: bytes.subarray(seq - startSeq) };
      index++;
    }
    for (; index < chunks.length; index++) yield chunks[index];
  }

  /** Retained chunks, newest first. */
  *chunksNewestFirst(): Generator<Chunk> {
    for (let index = this.#chunks.length - 1; index >= this.#head; index--) {
      yield this.#chunks[index];
    }
  }

  /** Index of the first retained chunk that ends after `seq`, or the chunk count if none does. */
  #indexAt(seq: number): number {
    const chunks = this.#chunks;
    let low = this.#head;
    let high = chunks.length;
    // Binary search for the first chunk starting after seq; its predecessor may contain seq.
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (chunks[middle].startSeq <= seq) low = middle + 1;
      else high = middle;
    }
    if (low > this.#head) {
      const previous = chunks[low - 1];
      if (previous.startSeq + previous.bytes.length > seq) return low - 1;
    }
    return low;
  }

  #evict(): void {
    let excess = this.#retainedBytes - this.#capacityBytes;
    while (excess > 0) {
      const { startSeq, bytes } = this.#chunks[this.#head];
      // A cut inside a chunk moves on to the next character boundary, dropping up to 3 more bytes.
      const drop = bytes.length <= excess ? bytes.length : skipContinuationBytes(bytes, excess);
      this.#onEvict?.(startSeq, drop === bytes.length ? bytes : bytes.subarray(0, drop));
      excess -= drop;
      this.#retainedBytes -= drop;
      this.#watermark = startSeq + drop;
      if (drop === bytes.length) {
        this.#dropFront();
      } else {
        // Copy only when the view would pin more evicted memory than the buffer may hold.
        const rest = drop > this.#capacityBytes ? bytes.slice(drop) : bytes.subarray(drop);
        this.#chunks[this.#head] = { startSeq: startSeq + drop, bytes: rest };
      }
    }
  }

  #dropFront(): void {
    // Release the bytes now; the slot itself goes at the next compaction.
    this.#chunks[this.#head] = DROPPED;
    this.#head++;
    if (this.#head >= COMPACT_MIN_DROPPED && this.#head * 2 >= this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#head);
      this.#head = 0;
    }
  }
}
