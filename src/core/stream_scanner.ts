import type { RegexRunner, RegexSpec } from "./condition_ports.ts";

/**
 * Scanned text kept before new text, so a match split across chunks or lines is found: any match
 * of up to this many characters is found wherever the chunks split it.
 */
export const CARRY_CHARS = 4096;
/** Most new text in one match attempt; more is scanned in slices (with the carry before each). */
export const SLICE_CHARS = 16_384;
/** Longest matched text reported; a longer match is cut here. */
export const MAX_MATCH_TEXT = 4096;

/** Text that starts at a known position (a stream's text is not contiguous in positions). */
interface Segment {
  seq: number;
  text: string;
}

/** How scanning ended. */
export type ScanResult =
  | { kind: "match"; text: string; seq: number; lineEndSeq: number }
  | { kind: "none" }
  | { kind: "failed"; error: string };

/**
 * Finds the first match of one regular expression in one stream's text as it arrives.
 *
 * - Complete lines (ended by `\n` or `\r`) are scanned as they arrive; an unterminated last line
 *   is held until its end arrives or {@linkcode flush} (the watcher flushes once the stream has
 *   been quiet briefly, and at exit), so `\d+` or `$` do not match half a line.
 * - Each attempt covers at most `CARRY_CHARS + SLICE_CHARS` characters and runs within the
 *   runner's deadline. The carry starts at a line start where it can, so `^` does not match
 *   mid-line.
 */
export class StreamScanner {
  #spec: RegexSpec;
  #runner: RegexRunner;
  #carry: Segment[] = [];
  #held: Segment[] = [];

  constructor(spec: RegexSpec, runner: RegexRunner) {
    this.#spec = spec;
    this.#runner = runner;
  }

  /** Whether an unterminated line waits for its end (or a flush). */
  get holding(): boolean {
    return this.#held.length > 0;
  }

  /** Adds `text`, which starts at `seq`, and scans every complete line so far. */
  scan(seq: number, text: string): Promise<ScanResult> {
    if (text.length === 0) return Promise.resolve({ kind: "none" });
    this.#held.push({ seq, text });
    const held = joinText(this.#held);
    let cut = Math.max(held.lastIndexOf("\n"), held.lastIndexOf("\r")) + 1;
    if (cut === 0) {
      // A line longer than a slice is scanned as it comes rather than held without bound.
      if (held.length < SLICE_CHARS) return Promise.resolve({ kind: "none" });
      cut = held.length;
    }
    const [ready, rest] = splitAt(this.#held, cut);
    this.#held = rest;
    return this.#scanReady(ready, rest);
  }

  /** Scans the held unterminated line as it stands. */
  flush(): Promise<ScanResult> {
    const ready = this.#held;
    this.#held = [];
    return this.#scanReady(ready, []);
  }

  async #scanReady(ready: Segment[], held: Segment[]): Promise<ScanResult> {
    let rest = ready;
    while (rest.length > 0) {
      const restText = joinText(rest);
      const [slice, after] = splitAt(rest, sliceEnd(restText));
      rest = after;
      const window = [...this.#carry, ...slice];
      const combined = joinText(window);
      const outcome = await this.#runner.exec(this.#spec, combined);
      switch (outcome.kind) {
        case "match":
          return matchResult([...window, ...rest, ...held], outcome);
        case "timeout":
          return { kind: "failed", error: timeoutError(outcome.deadlineMs, combined.length) };
        case "error":
          return { kind: "failed", error: `The until.output regex failed: ${outcome.message}` };
      }
      this.#carry = keepTail(window, combined);
    }
    return { kind: "none" };
  }
}

/** The match and the end of its line, looked for in the attempt and in the text known after it. */
function matchResult(known: Segment[], match: { index: number; text: string }): ScanResult {
  const text = joinText(known);
  const matchEnd = match.index + match.text.length;
  const newline = match.text.endsWith("\n") ? matchEnd - 1 : text.indexOf("\n", matchEnd);
  return {
    kind: "match",
    text: match.text.length > MAX_MATCH_TEXT ? cutText(match.text) : match.text,
    seq: seqAt(known, match.index),
    lineEndSeq: seqAfter(known, newline >= 0 ? newline + 1 : text.length),
  };
}

function timeoutError(deadlineMs: number, chars: number): string {
  return `The until.output regex ran longer than ${deadlineMs} ms on ${chars} characters of output and was stopped; simplify it (nested quantifiers such as (a+)+ backtrack exponentially)`;
}

/** End of the next slice of `text`: at a line end where one is near, never inside a pair. */
function sliceEnd(text: string): number {
  if (text.length <= SLICE_CHARS) return text.length;
  const newline = text.lastIndexOf("\n", SLICE_CHARS - 1);
  if (newline >= SLICE_CHARS / 2) return newline + 1;
  return isHighSurrogate(text.charCodeAt(SLICE_CHARS - 1)) ? SLICE_CHARS - 1 : SLICE_CHARS;
}

/** The last `CARRY_CHARS` of the window, from the first line start in them when there is one. */
function keepTail(window: Segment[], combined: string): Segment[] {
  let start = combined.length - CARRY_CHARS;
  if (start <= 0) return window;
  const newline = combined.indexOf("\n", start - 1);
  if (newline >= 0) start = newline + 1;
  else if (isHighSurrogate(combined.charCodeAt(start - 1))) start++;
  return splitAt(window, start)[1];
}

/** Splits segments at a character index of their joined text. */
function splitAt(segments: Segment[], index: number): [Segment[], Segment[]] {
  const before: Segment[] = [];
  const after: Segment[] = [];
  let position = 0;
  for (const segment of segments) {
    const end = position + segment.text.length;
    if (end <= index) before.push(segment);
    else if (position >= index) after.push(segment);
    else {
      const cut = index - position;
      before.push({ seq: segment.seq, text: segment.text.slice(0, cut) });
      after.push({
        seq: segment.seq + utf8Length(segment.text, 0, cut),
        text: segment.text.slice(cut),
      });
    }
    position = end;
  }
  return [before, after];
}

function joinText(segments: Segment[]): string {
  return segments.length === 1 ? segments[0].text : segments.map((s) => s.text).join("");
}

/** Position of the character at `index` of the joined text. */
function seqAt(segments: Segment[], index: number): number {
  let position = 0;
  for (const segment of segments) {
    if (index < position + segment.text.length) {
      return segment.seq + utf8Length(segment.text, 0, index - position);
    }
    position += segment.text.length;
  }
  return seqAfter(segments, index);
}

/** Position just after the character before `index` of the joined text. */
function seqAfter(segments: Segment[], index: number): number {
  let position = 0;
  for (const segment of segments) {
    if (index <= position + segment.text.length) {
      return segment.seq + utf8Length(segment.text, 0, index - position);
    }
    position += segment.text.length;
  }
  const last = segments[segments.length - 1];
  return last === undefined ? 0 : last.seq + utf8Length(last.text, 0, last.text.length);
}

/** UTF-8 length of `text.slice(start, end)` (text decoded from valid UTF-8 has no lone surrogates). */
export function utf8Length(text: string, start: number, end: number): number {
  let bytes = 0;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHighSurrogate(code) && index + 1 < end) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

function cutText(text: string): string {
  const end = isHighSurrogate(text.charCodeAt(MAX_MATCH_TEXT - 1))
    ? MAX_MATCH_TEXT - 1
    : MAX_MATCH_TEXT;
  return text.slice(0, end);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
