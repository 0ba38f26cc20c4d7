import type { OutputLog, StreamName } from "./output_log.ts";

/** The newest bytes of each stream after the contiguous part of a page (the default view). */
export interface Tails {
  stdout_tail?: string;
  stdout_tail_seq?: number;
  stderr_tail?: string;
  stderr_tail_seq?: number;
}

/** A tail that starts mid-line moves to the next line when its end is this close. */
const NEAR_LINE_CHARS = 512;

const encoder = new TextEncoder();

/**
 * The newest bytes of stdout and stderr at or after `fromSeq`, within `budgetBytes` together.
 * stderr gets at least half the budget when it has that much (the last error line is never
 * crowded out by a flood on stdout), and either stream gets what the other leaves unused. A
 * tail that had to start mid-line starts at the next line when one begins near its start.
 */
export function takeTails(log: OutputLog, fromSeq: number, budgetBytes: number): Tails {
  const half = Math.floor(budgetBytes / 2);
  const stdoutBytes = newestOf(log, "stdout", fromSeq, budgetBytes).bytes;
  const stderrBytes = newestOf(log, "stderr", fromSeq, budgetBytes).bytes;
  const stderrShare = stdoutBytes + stderrBytes <= budgetBytes
    ? stderrBytes
    : Math.min(stderrBytes, Math.max(half, budgetBytes - stdoutBytes));
  const tails: Tails = {};
  const stdout = tailOf(log, "stdout", fromSeq, budgetBytes - stderrShare);
  if (stdout !== null) {
    tails.stdout_tail = stdout.text;
    tails.stdout_tail_seq = stdout.seq;
  }
  const stderr = tailOf(log, "stderr", fromSeq, stderrShare);
  if (stderr !== null) {
    tails.stderr_tail = stderr.text;
    tails.stderr_tail_seq = stderr.seq;
  }
  return tails;
}

interface Newest {
  text: string;
  seq: number;
  bytes: number;
}

/** At most `maxBytes` newest bytes of one stream, none before `fromSeq`. */
function newestOf(log: OutputLog, stream: StreamName, fromSeq: number, maxBytes: number): Newest {
  if (maxBytes <= 0) return { text: "", seq: fromSeq, bytes: 0 };
  const seq = Math.max(fromSeq, log.newestStart({ maxBytes, streams: stream }));
  const page = log.read({ startSeq: seq, maxBytes, streams: stream });
  const text = page[stream];
  return { text, seq: page.startSeq, bytes: encoder.encode(text).length };
}

/** The tail of one stream, moved to a line start when one is near; null when it has none. */
function tailOf(
  log: OutputLog,
  stream: StreamName,
  fromSeq: number,
  maxBytes: number,
): { text: string; seq: number } | null {
  const newest = newestOf(log, stream, fromSeq, maxBytes);
  if (newest.text === "") return null;
  if (newest.seq <= fromSeq || startsLine(log, stream, newest)) return newest;
  const newline = newest.text.indexOf("\n");
  const near = Math.min(NEAR_LINE_CHARS, Math.floor(newest.text.length / 2));
  if (newline < 0 || newline >= near) return newest;
  const skipped = encoder.encode(newest.text.slice(0, newline + 1)).length;
  const seq = log.read({ startSeq: newest.seq, maxBytes: skipped, streams: stream }).nextSeq;
  return { text: newest.text.slice(newline + 1), seq };
}

/** Whether the byte of the stream before the tail is a newline. */
function startsLine(log: OutputLog, stream: StreamName, newest: Newest): boolean {
  const before = log.newestStart({ maxBytes: newest.bytes + 1, streams: stream });
  if (before >= newest.seq) return false;
  return log.read({ startSeq: before, maxBytes: 1, streams: stream })[stream] === "\n";
}
