import type { TaggedChunk } from "./merge_chunks.ts";
import { PageText } from "./page_text.ts";
import { utf8CharLengthAt, utf8SafePrefixLength } from "./utf8.ts";

/** What {@linkcode takePage} took of a run of chunks. */
export interface TakenPage {
  stdout: string;
  stderr: string;
  /** Position of the first byte taken, or null when none was. */
  firstSeq: number | null;
  /** One past the last byte taken (`start` when none was). */
  endSeq: number;
  /** The budget stopped the take before the chunks ended. */
  capped: boolean;
}

/**
 * Takes whole characters of position-ordered `chunks` until `maxBytes` are used (exceeded by
 * at most one character to make progress), decoding each as it is taken: a chunk read from
 * disk is valid only until its stream advances.
 */
export function takePage(
  chunks: Iterable<TaggedChunk<"stdout" | "stderr">>,
  start: number,
  maxBytes: number,
): TakenPage {
  const text = { stdout: new PageText(), stderr: new PageText() };
  let budget = maxBytes;
  let firstSeq: number | null = null;
  let endSeq = start;
  let capped = false;
  for (const chunk of chunks) {
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
  return { stdout: text.stdout.finish(), stderr: text.stderr.finish(), firstSeq, endSeq, capped };
}
