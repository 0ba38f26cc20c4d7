/**
 * Matching one block of a stream's text, in the search worker (where a runaway regular
 * expression can be stopped); pure, so it is tested directly too.
 */

/** What to find in one block. */
export interface BlockQuery {
  /** Source and flags of the regular expression (`g` and `m` included). */
  source: string;
  flags: string;
  /** Bytes of the block: whole lines, then up to `contextLines` lines of lookahead. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Bytes that are searched (line starts before it); the rest is lookahead for context. */
  searchedBytes: number;
  /** Most matching lines to return. */
  maxMatches: number;
  /** Lines of context before and after each matching line. */
  contextLines: number;
  /** Lines before the block, for the context of its first lines (at most `contextLines`). */
  leading: readonly string[];
  /** Longest line text returned, in UTF-16 units; longer lines are cut around the match. */
  maxLineChars: number;
}

/** A matching line of a block. */
export interface BlockMatch {
  /** Byte offset in the block of the line's first byte, and of the match's. */
  lineByte: number;
  matchByte: number;
  text: string;
  before: string[];
  after: string[];
}

/** The matches of a block and the context the next block starts with. */
export interface BlockResult {
  matches: BlockMatch[];
  /**
   * The next matching line when `maxMatches` stopped the scan before the end of the searched
   * bytes (the block offset of its first byte), else null.
   */
  next: { lineByte: number } | null;
  /** The last `contextLines` lines of the searched bytes (with `leading` before them). */
  trailing: string[];
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Finds the matching lines of one block: one result per line, at its first match. */
export function matchBlock(query: BlockQuery): BlockResult {
  const { bytes, searchedBytes, contextLines, maxLineChars } = query;
  const searched = decoder.decode(bytes.subarray(0, searchedBytes));
  const text = searched + decoder.decode(bytes.subarray(searchedBytes));
  const end = searched.length;
  const regex = new RegExp(query.source, query.flags);
  const matches: BlockMatch[] = [];
  // A running conversion from UTF-16 indices to bytes, as matches only move on.
  let charAt = 0;
  let byteAt = 0;
  let from = 0;
  let next: BlockResult["next"] = null;
  while (from < end) {
    regex.lastIndex = from;
    const found = regex.exec(text);
    if (found === null) break;
    const index = found.index;
    // A match in the lookahead belongs to the next block (even inside a line cut in two).
    if (index >= end) break;
    const lineStart = text.lastIndexOf("\n", index - 1) + 1;
    byteAt += utf8Length(text, charAt, lineStart);
    charAt = lineStart;
    if (matches.length === query.maxMatches) {
      next = { lineByte: byteAt };
      break;
    }
    const match = lineMatch(text, query, { lineByte: byteAt, lineStart, index });
    matches.push(match.found);
    from = match.lineEnd + 1;
  }
  const trailing = linesBefore(text, end, contextLines, query.leading)
    .map((line) => clip(line, 0, maxLineChars));
  return { matches, next, trailing };
}

/** The matching line that starts at `lineStart` (block byte `lineByte`), its match at `index`. */
function lineMatch(
  text: string,
  query: BlockQuery,
  at: { lineByte: number; lineStart: number; index: number },
): { found: BlockMatch; lineEnd: number } {
  const { contextLines, maxLineChars } = query;
  const { lineByte, lineStart, index } = at;
  let lineEnd = text.indexOf("\n", index);
  if (lineEnd < 0) lineEnd = text.length;
  const found = {
    lineByte,
    matchByte: lineByte + utf8Length(text, lineStart, index),
    text: clip(text.slice(lineStart, lineEnd), index - lineStart, maxLineChars),
    before: linesBefore(text, lineStart, contextLines, query.leading)
      .map((line) => clip(line, 0, maxLineChars)),
    after: linesAfter(text, lineEnd, contextLines).map((line) => clip(line, 0, maxLineChars)),
  };
  return { found, lineEnd };
}

/** The `count` lines before the line starting at `at` (from `leading` past the block start). */
function linesBefore(
  text: string,
  at: number,
  count: number,
  leading: readonly string[],
): string[] {
  const lines: string[] = [];
  // The newline that ends the previous line; none before the block's first line.
  let end = at - 1;
  while (lines.length < count && end >= 0) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    lines.unshift(text.slice(start, end));
    end = start - 1;
  }
  const missing = count - lines.length;
  if (missing > 0 && leading.length > 0) lines.unshift(...leading.slice(-missing));
  return lines;
}

/** The `count` lines after the line ending at `lineEnd` (its newline or the text's end). */
function linesAfter(text: string, lineEnd: number, count: number): string[] {
  const lines: string[] = [];
  let start = lineEnd + 1;
  while (lines.length < count && start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    lines.push(text.slice(start, end));
    start = end + 1;
  }
  return lines;
}

/** A line cut to `max` UTF-16 units around `focus`, with an ellipsis where it was cut. */
function clip(line: string, focus: number, max: number): string {
  if (line.length <= max) return line;
  let start = Math.max(0, Math.min(focus - Math.floor(max / 3), line.length - max));
  let end = start + max;
  // Never cut a surrogate pair in two.
  if (isLowSurrogate(line.charCodeAt(start))) start++;
  if (isLowSurrogate(line.charCodeAt(end))) end--;
  return (start > 0 ? "…" : "") + line.slice(start, end) + (end < line.length ? "…" : "");
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** UTF-8 length of `text[from, to)`, which holds no lone surrogates (it was decoded). */
export function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
