import type { ReaderOf } from "./segment_chunks.ts";
import { segmentIndex } from "./segment_index.ts";
import { forward, type SpoolSegment } from "./spool_segment.ts";
import { countLineFeeds } from "./utf8.ts";

/**
 * Line feeds before position `seq` of the stream held by the position-ordered `segments`
 * (whose staged bytes were flushed), read in blocks of `blockBytes`; null when no segment
 * ends after `seq`.
 */
export function segmentLineFeedsBefore(
  segments: readonly SpoolSegment[],
  readerOf: ReaderOf,
  seq: number,
  blockBytes: number,
): number | null {
  const segment = segments[segmentIndex(segments, "seq", seq)];
  if (segment === undefined) return null;
  const reader = readerOf(segment);
  const span = segment.checkpointAt("seq", seq);
  let lines = segment.checkpoint(span).lines;
  for (const record of reader.records(segment, span, true)) {
    if (record.seq >= seq) break;
    const take = Math.min(record.length, seq - record.seq);
    const pieces = forward(reader, record, record.seq, record.seq + take, blockBytes);
    for (const chunk of pieces) {
      lines += countLineFeeds(chunk.bytes);
    }
  }
  return lines;
}
