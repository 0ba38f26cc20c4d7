import type { ReaderOf } from "./segment_chunks.ts";
import { segmentIndex } from "./segment_index.ts";
import type { RecordInfo, SegmentReader, SpoolSegment } from "./spool_segment.ts";
import { skipContinuationBytes } from "./utf8.ts";

/** The ends of a stream spool that {@linkcode capWatermark} falls back on. */
export interface SpoolEnds {
  /** One past the newest byte appended, or null when nothing was. */
  endSeq: number | null;
  /** One past the newest byte of the newest dropped segment, or null. */
  droppedEndSeq: number | null;
}

/**
 * The watermark of a per-stream cap whose cut is at stream offset `cut` (within the bytes of
 * the flushed, position-ordered `segments`): one past the position of the last byte before
 * the first character boundary at or after `cut`.
 */
export function capWatermark(
  segments: readonly SpoolSegment[],
  readerOf: ReaderOf,
  cut: number,
  ends: SpoolEnds,
): number | null {
  const found = recordAtOffset(segments, readerOf, cut);
  if (found === null) return ends.endSeq;
  const { reader, record } = found;
  const within = cut - record.offset;
  const view = reader.view(record.payloadAt + within, Math.min(4, record.length - within));
  const boundary = cut + skipContinuationBytes(view, 0);
  if (boundary === cut && within === 0) {
    // The cut is a record start: the last byte before it ends the previous record.
    const previous = recordAtOffset(segments, readerOf, cut - 1);
    if (previous === null) return ends.droppedEndSeq;
    return previous.record.seq + (cut - 1 - previous.record.offset) + 1;
  }
  if (boundary >= record.offset + record.length) return record.seq + record.length;
  return record.seq + (boundary - record.offset);
}

function recordAtOffset(
  segments: readonly SpoolSegment[],
  readerOf: ReaderOf,
  offset: number,
): { reader: SegmentReader; record: RecordInfo } | null {
  const segment = segments[segmentIndex(segments, "offset", offset)];
  if (segment === undefined || offset < segment.startOffset) return null;
  const reader = readerOf(segment);
  for (const record of reader.records(segment, segment.checkpointAt("offset", offset), true)) {
    if (offset < record.offset + record.length) return { reader, record };
  }
  return null;
}
