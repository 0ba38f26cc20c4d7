import type { Truncation } from "../../contract/arguments.ts";
import { TRUNCATION_MARKER } from "../../contract/tab_shell.ts";

/** The retained text of one stream. */
export interface StreamText {
  text: string;
  /** The oldest part of the stream is gone from the buffer, so `text` is its newest part. */
  lostFront: boolean;
}

/** Both streams after truncation. */
export interface TruncatedOutput {
  stdout: string;
  stderr: string;
  truncated: boolean;
}

const MARKER = [...TRUNCATION_MARKER];

/**
 * Cuts stdout plus stderr to at most `maxChars` characters (code points, as Python counts them),
 * with tab-shell-mcp's budget: stdout has the first claim, stderr is guaranteed up to a third
 * when it needs it, and each cut stream carries the marker (at the end for `head`, at the front
 * for `tail`). A budget too small for the marker keeps plain text instead of a marker fragment.
 */
export function truncateOutput(
  stdout: StreamText,
  stderr: StreamText,
  maxChars: number,
  mode: Truncation,
): TruncatedOutput {
  const out = [...stdout.text];
  const err = [...stderr.text];
  const outLength = stdout.lostFront ? Infinity : out.length;
  const errLength = stderr.lostFront ? Infinity : err.length;
  if (outLength + errLength <= maxChars) {
    return { stdout: stdout.text, stderr: stderr.text, truncated: false };
  }
  const third = Math.floor(maxChars / 3);
  let outBudget = Math.min(outLength, maxChars);
  let errBudget = maxChars - outBudget;
  if ((errLength > 0 && errBudget === 0) || (errLength > errBudget && errBudget < third)) {
    errBudget = Math.min(errLength, third);
    outBudget = maxChars - errBudget;
  }
  const fittedOut = fit(out, stdout.lostFront, outBudget, mode);
  const fittedErr = fit(err, stderr.lostFront, errBudget, mode);
  return {
    stdout: fittedOut.text,
    stderr: fittedErr.text,
    truncated: fittedOut.cut || fittedErr.cut,
  };
}

/** One stream fitted to its budget. */
function fit(
  chars: string[],
  lostFront: boolean,
  budget: number,
  mode: Truncation,
): { text: string; cut: boolean } {
  if (!lostFront && chars.length <= budget) return { text: chars.join(""), cut: false };
  if (budget <= 0) return { text: "", cut: chars.length > 0 || lostFront };
  const room = budget - MARKER.length;
  if (room <= 0) {
    const kept = mode === "head" ? chars.slice(0, budget) : chars.slice(-budget);
    return { text: kept.join(""), cut: true };
  }
  if (mode === "tail") return { text: [...MARKER, ...chars.slice(-room)].join(""), cut: true };
  // The head of a stream whose oldest bytes were evicted is gone: mark both cuts.
  const bothEnds = lostFront && room > MARKER.length;
  const kept = chars.slice(0, bothEnds ? room - MARKER.length : room);
  return { text: [...(bothEnds ? MARKER : []), ...kept, ...MARKER].join(""), cut: true };
}
