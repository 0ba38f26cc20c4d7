import { type Chunk, RingBuffer } from "./ring_buffer.ts";
import type { ExecutionSpool } from "./spool.ts";
import { SpooledStream } from "./spooled_stream.ts";
import type { EvictionCause, StreamStore } from "./stream_store.ts";
import {
  countLineFeeds,
  skipContinuationBytes,
  utf8CharLengthAt,
  utf8SafePrefixLength,
} from "./utf8.ts";

/** One output stream of a process. */
export type StreamName = "stdout" | "stderr";

/** Which streams a read covers. */
export type StreamSelection = "both" | "stdout" | "stderr";

/** One page of output and the cursor fields that describe it. */
export interface OutputPage {
  /** Decoded text of the bytes taken from stdout (empty if none or not selected). */
  stdout: string;
  /** Decoded text of the bytes taken from stderr (empty if none or not selected). */
  stderr: string;
  /** First returned position, or `nextSeq` if nothing was returned. */
  startSeq: number;
  /** One past the range covered; pass it as the next read's `startSeq`. */
  nextSeq: number;
  /** The byte budget stopped the read; more is buffered. */
  capped: boolean;
  /** The requested range overlapped evicted data. */
  evicted: boolean;
  /**
   * Which setting evicted it; set only when `evicted` and the log is spooled (without a spool
   * it is always the ring buffer, `max_buffer_bytes`, as in the contract).
   */
  evictedBy?: EvictionCause;
}

/** Options for {@linkcode OutputLog.read}. */
export interface ReadOptions {
  /** Position to start at; values <= 1 mean "oldest retained". */
  startSeq: number;
  /** Byte budget shared across selected streams (may be exceeded by <= 3 bytes to make progress on one char). */
  maxBytes: number;
  /** @default "both" */
  streams?: StreamSelection;
}

/** Options for {@linkcode OutputLog.tailStart}. */
export interface TailOptions {
  /** Lines wanted, counted across the selected streams; a final newline ends the last line. */
  lines: number;
  /** Most bytes from the start to the newest byte, counting only selected streams. */
  maxBytes: number;
  /** @default "both" */
  streams?: StreamSelection;
}

/** Options for {@linkcode OutputLog.newestStart}. */
export interface NewestOptions {
  /** Most bytes from the start to the newest byte, counting only selected streams. */
  maxBytes: number;
  /** @default "both" */
  streams?: StreamSelection;
}

/** Options for {@linkcode OutputLog}. */
export interface OutputLogOptions {
  /** Most bytes retained per stream in memory (with a spool: the cache of the newest bytes). */
  capacityBytes: number;
  /**
   * Spools older bytes to disk, up to its `max_spool_bytes` per stream. Without it (`spool:
   * off`) the ring buffers are the retention, exactly as in the contract.
   */
  spool?: ExecutionSpool | null;
}

/** A run of bytes of one stream at its first position. */
export interface StreamPiece {
  readonly stream: StreamName;
  readonly seq: number;
  readonly bytes: Uint8Array;
}

interface StreamChunk extends Chunk {
  readonly stream: StreamName;
}

const LINE_FEED = 0x0a;

/**
 * The stdout and stderr of one execution sharing one position counter: two ring buffers, or
 * two spooled streams whose ring buffers cache the newest bytes of their disk history.
 */
export class OutputLog {
  #buffers: Record<StreamName, StreamStore>;
  #spool: ExecutionSpool | null;
  #latestSeq = 1;

  constructor(options: OutputLogOptions) {
    const { capacityBytes, spool = null } = options;
    this.#spool = spool;
    const store = (stream: StreamName): StreamStore =>
      spool === null || spool.problem !== null
        ? new RingBuffer({ capacityBytes })
        : new SpooledStream({
          cacheBytes: capacityBytes,
          maxBytes: spool.maxStreamBytes,
          spool: spool.stream(stream),
        });
    this.#buffers = { stdout: store("stdout"), stderr: store("stderr") };
  }

  /** Whether older output goes to disk (false with `spool: off` or when the spool is unusable). */
  get spooled(): boolean {
    return this.#buffers.stdout instanceof SpooledStream;
  }

  /**
   * Why output is kept in memory only although a spool was asked for: the spool directory is
   * unusable, or writing a stream failed (a full disk); null otherwise.
   */
  get spoolProblem(): string | null {
    const problem = this.#spool?.problem ?? null;
    if (problem !== null) return problem;
    for (const stream of ["stdout", "stderr"] as const) {
      const store = this.#buffers[stream];
      if (store instanceof SpooledStream && store.problem !== null) {
        return `Spooling ${stream} to disk failed (${store.problem}); it keeps only its newest bytes in memory`;
      }
    }
    return null;
  }

  /** Deletes the spooled files (the memory cache stays readable); idempotent. */
  close(): void {
    for (const store of Object.values(this.#buffers)) {
      if (store instanceof SpooledStream) store.close();
    }
    this.#spool?.close();
  }

  /** One past the highest evicted position of `stream`, or null. */
  watermark(stream: StreamName): number | null {
    return this.#buffers[stream].watermark;
  }

  /**
   * Retained chunks of one stream in position order from `seq` (reads settle the spool first);
   * `sizeHint` sizes the reads from disk.
   */
  chunksOf(stream: StreamName, seq: number, sizeHint?: number): Iterable<Chunk> {
    this.#prepare([[stream, this.#buffers[stream]]]);
    return this.#buffers[stream].chunksFrom(seq, sizeHint);
  }

  /**
   * Line feeds of `stream` before position `seq` (its oldest retained position or later), or
   * null when evicted bytes were not counted (no spool).
   */
  lineFeedsBefore(stream: StreamName, seq: number): number | null {
    const store = this.#buffers[stream];
    if (store instanceof SpooledStream) return store.lineFeedsBefore(seq);
    if (store.watermark !== null) return null;
    let lines = 0;
    for (const chunk of store.chunksFrom(1)) {
      if (chunk.startSeq >= seq) break;
      lines += countLineFeeds(chunk.bytes.subarray(0, Math.max(0, seq - chunk.startSeq)));
    }
    return lines;
  }

  /** One past the newest captured byte of either stream; starts at 1. */
  get latestSeq(): number {
    return this.#latestSeq;
  }

  /** Bytes ever appended to `stream`, evicted ones included. */
  bytesCaptured(stream: StreamName): number {
    return this.#buffers[stream].bytesCaptured;
  }

  /** Appends valid UTF-8 `bytes` to `stream` at the next positions, taking ownership of them. */
  append(stream: StreamName, bytes: Uint8Array): void {
    this.#buffers[stream].append(this.#latestSeq, bytes);
    this.#latestSeq += bytes.length;
  }

  /** Retained chunks of `stream` that end after `seq`, the first trimmed to start there. */
  *chunksFrom(stream: StreamName, seq: number): Generator<StreamPiece> {
    for (const chunk of this.#buffers[stream].chunksFrom(seq)) {
      yield { stream, seq: chunk.startSeq, bytes: chunk.bytes };
    }
  }

  /** Reads the selected streams from `startSeq` in position order, within one shared byte budget. */
  read(options: ReadOptions): OutputPage {
    const { startSeq, maxBytes, streams = "both" } = options;
    checkCount(startSeq, "startSeq", -Infinity, "read output");
    checkCount(maxBytes, "maxBytes", 0, "read output");
    const selected = this.#select(streams);
    this.#prepare(selected);
    // Clamping keeps latestSeq >= nextSeq, and positions start at 1.
    const start = Math.min(Math.max(startSeq, 1), this.#latestSeq);
    // Decoded as taken: a chunk read from disk is valid only until its stream advances.
    const text = { stdout: new PageText(), stderr: new PageText() };
    let budget = maxBytes;
    let firstSeq: number | null = null;
    let endSeq = start;
    let capped = false;
    // The budget sizes reads from disk (plus a character's bytes beyond it).
    const hint = maxBytes + 4;
    const sources = selected.map(([stream, buffer]) => tag(stream, buffer.chunksFrom(start, hint)));
    for (const chunk of merge(sources, "oldestFirst")) {
      if (budget <= 0) {
        capped = true;
        break;
      }
      let length = utf8SafePrefixLength(chunk.bytes, budget);
      if (length === 0) {
        if (firstSeq !== null) {
          capped = true;
          break;
        }
        // Progress over precision: one whole character, even if it exceeds the budget.
        length = utf8CharLengthAt(chunk.bytes, 0);
      }
      text[chunk.stream].add(chunk.bytes.subarray(0, length));
      firstSeq ??= chunk.startSeq;
      endSeq = chunk.startSeq + length;
      budget -= length;
      if (length < chunk.bytes.length) {
        capped = true;
        break;
      }
    }
    let nextSeq = endSeq;
    if (!capped) {
      // Skip evicted ranges, but never move backwards (the reference's defect 8.1 #1).
      for (const [, buffer] of selected) nextSeq = Math.max(nextSeq, buffer.watermark ?? 0);
    }
    const page: OutputPage = {
      stdout: text.stdout.finish(),
      stderr: text.stderr.finish(),
      startSeq: firstSeq ?? nextSeq,
      nextSeq,
      capped,
      evicted: selected.some(([, buffer]) => start < (buffer.watermark ?? 0)),
    };
    if (page.evicted) {
      const cause = evictionCause(selected, start);
      if (cause !== null) page.evictedBy = cause;
    }
    return page;
  }

  /** Position where a read of the last `lines` lines starts, moved later to keep at most `maxBytes`. */
  tailStart(options: TailOptions): number {
    const { lines, maxBytes, streams = "both" } = options;
    checkCount(lines, "lines", 1, "find the tail start");
    checkCount(maxBytes, "maxBytes", 0, "find the tail start");
    return this.#walkBack(lines, maxBytes, streams);
  }

  /** Position from which at most `maxBytes` newest retained bytes remain, on a character boundary. */
  newestStart(options: NewestOptions): number {
    const { maxBytes, streams = "both" } = options;
    checkCount(maxBytes, "maxBytes", 0, "find the newest start");
    return this.#walkBack(Infinity, maxBytes, streams);
  }

  #select(streams: StreamSelection): [StreamName, StreamStore][] {
    if (streams === "both") {
      return [["stdout", this.#buffers.stdout], ["stderr", this.#buffers.stderr]];
    }
    return [[streams, this.#buffers[streams]]];
  }

  #prepare(selected: [StreamName, StreamStore][]): void {
    // Settle every spool first: a spool's write can evict another stream's oldest files.
    for (const [, store] of selected) if (store instanceof SpooledStream) store.prepareRead();
  }

  #walkBack(lines: number, maxBytes: number, streams: StreamSelection): number {
    const selected = this.#select(streams);
    this.#prepare(selected);
    const sources = selected.map(([stream, buffer]) => tag(stream, buffer.chunksNewestFirst()));
    let newer: Chunk | null = null;
    let walkedBytes = 0;
    let countedLines = 0;
    for (const chunk of merge(sources, "newestFirst")) {
      const { startSeq, bytes } = chunk;
      if (maxBytes === 0) return startSeq + bytes.length;
      for (let index = bytes.length - 1; index >= 0; index--) {
        // A single final newline ends the last line rather than starting an empty one, as in tail -n.
        if (bytes[index] === LINE_FEED && walkedBytes > 0 && ++countedLines === lines) {
          return startSeq + index + 1;
        }
        if (++walkedBytes === maxBytes) {
          const boundary = skipContinuationBytes(bytes, index);
          if (boundary < bytes.length) return startSeq + boundary;
          return newer?.startSeq ?? startSeq + bytes.length;
        }
      }
      newer = chunk;
    }
    // Fewer lines than asked, or no data at all.
    return newer?.startSeq ?? this.#latestSeq;
  }
}

/** The text of one stream of a page, decoded part by part. */
class PageText {
  // ignoreBOM keeps a BOM in the text, as it occupies positions.
  #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  #text = "";

  add(bytes: Uint8Array): void {
    this.#text += this.#decoder.decode(bytes, { stream: true });
  }

  finish(): string {
    return this.#text + this.#decoder.decode();
  }
}

/** The cause of the highest watermark after `start` among spooled streams, or null. */
function evictionCause(selected: [StreamName, StreamStore][], start: number): EvictionCause | null {
  let cause: EvictionCause | null = null;
  let highest = start;
  for (const [, store] of selected) {
    const watermark = store.watermark ?? 0;
    if (store instanceof SpooledStream && watermark > highest) {
      highest = watermark;
      cause = store.evictionCause;
    }
  }
  return cause;
}

function* tag(stream: StreamName, chunks: Iterable<Chunk>): Generator<StreamChunk> {
  for (const { startSeq, bytes } of chunks) yield { stream, startSeq, bytes };
}

/** Merges position-ordered chunk sources (at most two, so a linear pick beats a heap). */
function* merge(
  sources: Iterator<StreamChunk>[],
  order: "oldestFirst" | "newestFirst",
): Generator<StreamChunk> {
  const heads = sources.map((source) => next(source));
  while (true) {
    let pick = -1;
    for (let index = 0; index < heads.length; index++) {
      const head = heads[index];
      if (head === undefined) continue;
      const best = heads[pick];
      if (
        best === undefined ||
        (order === "oldestFirst" ? head.startSeq < best.startSeq : head.startSeq > best.startSeq)
      ) {
        pick = index;
      }
    }
    const chunk = heads[pick];
    if (chunk === undefined) return;
    yield chunk;
    heads[pick] = next(sources[pick]);
  }
}

function next(source: Iterator<StreamChunk>): StreamChunk | undefined {
  const result = source.next();
  return result.done ? undefined : result.value;
}

function checkCount(value: number, name: string, minimum: number, action: string): void {
  if (value >= minimum && (Number.isInteger(value) || value === Infinity)) return;
  const range = minimum === -Infinity ? "an integer" : `an integer >= ${minimum}`;
  throw new RangeError(`Cannot ${action} as ${name} must be ${range}: received ${value}`);
}
