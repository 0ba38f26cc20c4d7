import type { OutputLog, StreamName } from "./output_log.ts";
import { utf8SafePrefixLength } from "./utf8.ts";

/** Bytes read past a block's last line for the context lines after its matches. */
const LOOKAHEAD_BYTES = 65_536;
/** Size of the reads a block is made of. */
const PIECE_BYTES = 65_536;

/** Whole lines of one stream, copied out of the log, and where they sit. */
export interface Block {
  /** The lines, then up to `contextLines` lines of lookahead (not searched). */
  bytes: Uint8Array<ArrayBuffer>;
  /** Bytes searched: whole lines, or a cut inside a line longer than a block. */
  searched: number;
  /** Position of the first byte, and where the next block starts. */
  firstSeq: number;
  resumeSeq: number;
  /** Everything retained was taken. */
  done: boolean;
  /** Pairs of (block offset, position) where each chunk starts. */
  runs: number[];
}

/** What to read: a stream from a position, in blocks of about `blockBytes`. */
export interface BlockRequest {
  stream: StreamName;
  seq: number;
  blockBytes: number;
  contextLines: number;
}

/** The next block of a stream from `seq`, or null at the end of what is retained. */
export function readBlock(log: OutputLog, request: BlockRequest): Block | null {
  const { blockBytes, contextLines } = request;
  const read = copyChunks(log, request);
  const { bytes, total, runs, exhausted } = read;
  if (total === 0) return null;
  const searched = searchedBytes(bytes.subarray(0, total), blockBytes, exhausted);
  const end = lookaheadEnd(bytes.subarray(0, total), searched, contextLines);
  return {
    bytes: bytes.subarray(0, end),
    searched,
    firstSeq: runs[1],
    resumeSeq: searched === total ? read.endSeq : seqAt(runs, searched),
    done: exhausted && searched === total,
    runs,
  };
}

/** The chunks from `seq`, copied into one buffer until a block and its lookahead are in. */
function copyChunks(log: OutputLog, request: BlockRequest) {
  const { stream, seq, blockBytes } = request;
  const limit = blockBytes + LOOKAHEAD_BYTES;
  // Copied as read: a chunk read from disk is valid only until the iteration advances. Reads
  // of a page block go to a shared buffer without allocating; one copy puts them here.
  let bytes = new Uint8Array(limit);
  const runs: number[] = [];
  let total = 0;
  let endSeq = seq;
  for (const chunk of log.chunksOf(stream, seq, PIECE_BYTES)) {
    if (total + chunk.bytes.length > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, total + chunk.bytes.length));
      grown.set(bytes.subarray(0, total));
      bytes = grown;
    }
    bytes.set(chunk.bytes, total);
    runs.push(total, chunk.startSeq);
    total += chunk.bytes.length;
    endSeq = chunk.startSeq + chunk.bytes.length;
    if (total >= limit) return { bytes, total, runs, endSeq, exhausted: false };
  }
  return { bytes, total, runs, endSeq, exhausted: true };
}

/**
 * Bytes of the block that are searched: whole lines up to `blockBytes`. A last line without its
 * newline is searched as it stands; what it gets later is searched as the rest of that line, so
 * nothing is reported twice.
 */
function searchedBytes(bytes: Uint8Array, blockBytes: number, exhausted: boolean): number {
  if (exhausted && bytes.length <= blockBytes) return bytes.length;
  const lastLineFeed = bytes.lastIndexOf(0x0a, blockBytes - 1);
  return lastLineFeed >= 0
    ? lastLineFeed + 1
    : utf8SafePrefixLength(bytes, blockBytes) || blockBytes;
}

/** Where the lookahead after `searched` ends: the rest of a cut line, then `lines` lines. */
function lookaheadEnd(bytes: Uint8Array, searched: number, lines: number): number {
  const total = bytes.length;
  let end = searched;
  const untilLineEnd = () => {
    const lineFeed = bytes.indexOf(0x0a, end);
    end = lineFeed < 0 ? total : lineFeed + 1;
  };
  // A line cut in two: read on to its end, so that a match across the cut is found whole.
  if (end < total && bytes[end - 1] !== 0x0a) untilLineEnd();
  for (let line = 0; line < lines && end < total; line++) untilLineEnd();
  return end;
}

/** Position of block offset `offset`, from the (offset, position) pairs of its chunks. */
export function seqAt(runs: readonly number[], offset: number): number {
  let low = 0;
  let high = runs.length / 2;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (runs[middle * 2] <= offset) low = middle + 1;
    else high = middle;
  }
  const run = Math.max(0, low - 1) * 2;
  return runs[run + 1] + (offset - runs[run]);
}
