import type { Chunk } from "./ring_buffer.ts";
import { segmentIndex } from "./segment_index.ts";
import { backward, forward, type SegmentReader, type SpoolSegment } from "./spool_segment.ts";

/** A reader of one segment's file. */
export type ReaderOf = (segment: SpoolSegment) => SegmentReader;

/**
 * Chunks of `[seq, endSeq)` in position order, read from the position-ordered `segments`
 * (whose staged bytes were flushed) in reads of `blockBytes`; no chunk is larger.
 */
export function* segmentChunksFrom(
  segments: readonly SpoolSegment[],
  readerOf: ReaderOf,
  seq: number,
  endSeq: number,
  blockBytes: number,
): Generator<Chunk> {
  for (let index = segmentIndex(segments, "seq", seq); index < segments.length; index++) {
    const segment = segments[index];
    if (segment.firstSeq >= endSeq) return;
    const reader = readerOf(segment);
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

/**
 * Chunks of `[floorSeq, endSeq)` newest first, read from the position-ordered `segments`
 * (whose staged bytes were flushed), each at most `blockBytes`.
 */
export function* segmentChunksBefore(
  segments: readonly SpoolSegment[],
  readerOf: ReaderOf,
  endSeq: number,
  floorSeq: number,
  blockBytes: number,
): Generator<Chunk> {
  const last = Math.min(segmentIndex(segments, "seq", endSeq - 1), segments.length - 1);
  for (let index = last; index >= 0; index--) {
    const segment = segments[index];
    if (segment.endSeq <= floorSeq) return;
    const reader = readerOf(segment);
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
        if (from < to) yield* backward(reader, record, from, to, blockBytes);
      }
    }
  }
}
