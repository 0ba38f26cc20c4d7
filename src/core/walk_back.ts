import type { Chunk } from "./ring_buffer.ts";
import { skipContinuationBytes } from "./utf8.ts";

const LINE_FEED = 0x0a;

/**
 * Walks newest-first `chunks` back to where the last `lines` lines start, stopping earlier
 * (on a character boundary) once `maxBytes` were walked; `latestSeq` when there are none.
 */
export function walkBack(
  chunks: Iterable<Chunk>,
  lines: number,
  maxBytes: number,
  latestSeq: number,
): number {
  let newer: Chunk | null = null;
  let walkedBytes = 0;
  let countedLines = 0;
  for (const chunk of chunks) {
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
  return newer?.startSeq ?? latestSeq;
}
