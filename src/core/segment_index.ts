import type { SpoolSegment } from "./spool_segment.ts";

/** Index of the first of `segments` ending after `value` (seq or stream offset), or the count. */
export function segmentIndex(
  segments: readonly SpoolSegment[],
  key: "seq" | "offset",
  value: number,
): number {
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
