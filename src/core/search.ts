import type { OutputLog, StreamName, StreamSelection } from "./output_log.ts";
import { RegexWorker } from "./regex_worker.ts";
import { type BlockMatch, type BlockQuery, matchBlock, measure } from "./search_block.ts";
import { decodeCursor, encodeCursor, SearchError, type StreamCursor } from "./search_cursor.ts";
import { utf8SafePrefixLength } from "./utf8.ts";

export { SearchError } from "./search_cursor.ts";

const MIB = 1_048_576;
/** Bytes read past a block's last line for the context lines after its matches. */
const LOOKAHEAD_BYTES = 65_536;
const MAX_PATTERN_CHARS = 10_000;
const MAX_LINE_CHARS = 500;
/** Per-match cost of the fields around its text, charged against `maxOutputBytes`. */
const MATCH_OVERHEAD_BYTES = 80;

/** What to find in one execution's output. */
export interface SearchRequest {
  /** A JavaScript regular expression, or plain text with `fixedString`. */
  pattern: string;
  /** @default false */
  fixedString?: boolean;
  /** @default false */
  ignoreCase?: boolean;
  /** @default "both" */
  streams?: StreamSelection;
  /** `nextCursor` of an earlier search with the same streams; null starts at the oldest byte. */
  cursor?: string | null;
  /** Lines of context before and after each matching line, 0 to 10. @default 2 */
  contextLines?: number;
  /** Most matching lines returned, 1 to 1000. @default 50 */
  maxMatches?: number;
  /** Budget for the text of the matches and their context (one match is always returned). */
  maxOutputBytes: number;
}

/** One matching line (one per line, at its first match). */
export interface SearchMatch {
  stream: StreamName;
  /** Position of the match's first byte. */
  seq: number;
  /** Position of the line's first byte. */
  lineSeq: number;
  /** 1-based line number in its stream, or null when evicted lines were not counted. */
  line: number | null;
  /** The line without its newline, cut around the match when longer than 500 characters. */
  text: string;
  before: string[];
  after: string[];
}

/** Why a search returned before the end of the retained output. */
export type SearchStop = "max_matches" | "max_output_bytes" | "time_limit";

/** The matches of one call and where the next call continues. */
export interface SearchResult {
  /** In position order within the call. */
  matches: SearchMatch[];
  /** Pass as `cursor` to continue; after a complete search it finds only newer output. */
  nextCursor: string;
  /** The whole retained output of the selected streams was searched. */
  complete: boolean;
  stoppedBy: SearchStop | null;
  /** One block ran past the time limit: the pattern backtracks too much to finish. */
  slowPattern: boolean;
  /** Output older than where the search started was evicted (it could not be searched). */
  evicted: boolean;
  /** Bytes searched by this call. */
  scannedBytes: number;
  latestSeq: number;
}

/** Options for {@linkcode Searcher}. */
export interface SearcherOptions {
  /** Time one call may take before it returns what it found and a cursor. @default 5000 */
  timeLimitMs?: number;
  /** Bytes matched at once (whole lines). @default 1 MiB */
  blockBytes?: number;
}

interface Scanner extends StreamCursor {
  /** null until the first block: the line number is computed there. */
  lineKnown: boolean;
  done: boolean;
  leading: string[];
}

interface Block {
  bytes: Uint8Array<ArrayBuffer>;
  /** Bytes searched (whole lines, or a cut inside a line longer than a block). */
  searched: number;
  /** Position of the first byte, and where the next block starts. */
  firstSeq: number;
  resumeSeq: number;
  /** Everything retained was taken. */
  done: boolean;
  /** Pairs of (block offset, position) where each chunk starts. */
  runs: number[];
}

/**
 * Searches the retained output of executions (disk spool and memory cache alike) for a regular
 * expression or a fixed string, in blocks of whole lines, within a time limit. Regular
 * expressions run in a worker thread that is terminated when a block runs past the limit.
 */
export class Searcher {
  #worker = new RegexWorker();
  #timeLimitMs: number;
  #blockBytes: number;

  constructor(options: SearcherOptions = {}) {
    const { timeLimitMs = 5_000, blockBytes = MIB } = options;
    this.#timeLimitMs = timeLimitMs;
    this.#blockBytes = Math.max(16, blockBytes);
  }

  /** Finds matching lines; throws `SearchError` for a bad pattern, cursor or limit. */
  async search(log: OutputLog, request: SearchRequest): Promise<SearchResult> {
    const deadline = performance.now() + this.#timeLimitMs;
    const { source, flags, fixed } = compile(request);
    const contextLines = checkLimit(request.contextLines ?? 2, "context_lines", 0, 10);
    const maxMatches = checkLimit(request.maxMatches ?? 50, "max_matches", 1, 1000);
    const maxOutputBytes = checkLimit(request.maxOutputBytes, "max_output_bytes", 1, Infinity);
    const scanners = startScanners(log, request);
    const matches: SearchMatch[] = [];
    let budget = maxOutputBytes;
    let stoppedBy: SearchStop | null = null;
    let slowPattern = false;
    let evicted = false;
    let scannedBytes = 0;
    while (true) {
      const scanner = nextScanner(scanners);
      if (scanner === null) break;
      if (matches.length >= maxMatches) {
        stoppedBy = "max_matches";
        break;
      }
      if (performance.now() >= deadline) {
        stoppedBy = "time_limit";
        break;
      }
      const block = this.#readBlock(log, scanner, contextLines);
      if (block === null) {
        scanner.done = true;
        continue;
      }
      evicted = settleStart(log, scanner, block.firstSeq) || evicted;
      const query: BlockQuery = {
        source,
        flags,
        bytes: block.bytes,
        searchedBytes: block.searched,
        maxMatches: maxMatches - matches.length,
        contextLines,
        leading: scanner.leading,
        maxLineChars: MAX_LINE_CHARS,
      };
      // Fixed strings cannot backtrack: they run here, yielding to other requests between blocks.
      const result = fixed
        ? await nextTask().then(() => matchBlock(query))
        : await this.#worker.run(query, deadline - performance.now());
      if (result === "timeout") {
        stoppedBy = "time_limit";
        slowPattern = true;
        break;
      }
      let stop: { lineByte: number; lineIndex: number } | null = null;
      for (const found of result.matches) {
        const cost = costOf(found);
        if (matches.length > 0 && cost > budget) {
          stop = found;
          stoppedBy = "max_output_bytes";
          break;
        }
        budget -= cost;
        matches.push(toMatch(found, scanner, block.runs));
      }
      if (stop === null && result.next !== null) {
        stop = result.next;
        stoppedBy = "max_matches";
      }
      if (stop !== null) {
        scanner.seq = seqAt(block.runs, stop.lineByte);
        if (scanner.line !== null) scanner.line += stop.lineIndex;
        scanner.leading = [];
        scannedBytes += stop.lineByte;
        break;
      }
      scannedBytes += block.searched;
      scanner.seq = block.resumeSeq;
      if (scanner.line !== null) scanner.line += result.lineFeeds;
      scanner.leading = result.trailing;
      scanner.done = block.done;
    }
    const complete = scanners.every((scanner) => scanner.done);
    matches.sort((a, b) => a.seq - b.seq);
    return {
      matches,
      nextCursor: encodeCursor(scanners),
      complete,
      stoppedBy: complete ? null : stoppedBy,
      slowPattern,
      evicted,
      scannedBytes,
      latestSeq: log.latestSeq,
    };
  }

  /** Ends the worker thread; idempotent. */
  close(): void {
    this.#worker.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  /** Whole lines from the scanner's position, up to a block, plus context lookahead. */
  #readBlock(log: OutputLog, scanner: Scanner, contextLines: number): Block | null {
    const blockBytes = this.#blockBytes;
    const limit = blockBytes + LOOKAHEAD_BYTES;
    // Copied as read: a chunk read from disk is valid only until the iteration advances.
    let bytes = new Uint8Array(Math.min(limit, 65_536));
    const runs: number[] = [];
    let total = 0;
    let endSeq = scanner.seq;
    let exhausted = true;
    for (const chunk of log.chunksOf(scanner.stream, scanner.seq, blockBytes)) {
      if (total + chunk.bytes.length > bytes.length) {
        const grown = new Uint8Array(Math.max(bytes.length * 2, total + chunk.bytes.length));
        grown.set(bytes.subarray(0, total));
        bytes = grown;
      }
      bytes.set(chunk.bytes, total);
      runs.push(total, chunk.startSeq);
      total += chunk.bytes.length;
      endSeq = chunk.startSeq + chunk.bytes.length;
      if (total >= limit) {
        exhausted = false;
        break;
      }
    }
    if (total === 0) return null;
    let searched: number;
    let resume: number;
    if (exhausted && total <= blockBytes) {
      // A last line without its newline is searched as it stands; what it gets later is
      // searched as the rest of that line, so nothing is reported twice.
      searched = total;
      resume = total;
    } else {
      const lastLineFeed = bytes.lastIndexOf(0x0a, blockBytes - 1);
      searched = lastLineFeed >= 0
        ? lastLineFeed + 1
        : utf8SafePrefixLength(bytes, blockBytes) || blockBytes;
      resume = searched;
    }
    let end = searched;
    if (end < total && bytes[end - 1] !== 0x0a) {
      // A line cut in two: read on to its end, so a match across the cut is found whole.
      const lineFeed = bytes.indexOf(0x0a, end);
      end = lineFeed < 0 ? total : lineFeed + 1;
    }
    for (let line = 0; line < contextLines && end < total; line++) {
      const lineFeed = bytes.indexOf(0x0a, end);
      end = lineFeed < 0 ? total : lineFeed + 1;
    }
    return {
      bytes: bytes.subarray(0, end),
      searched,
      firstSeq: runs[1],
      resumeSeq: resume === total ? endSeq : seqAt(runs, resume),
      done: exhausted && searched === total,
      runs,
    };
  }
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function compile(request: SearchRequest): { source: string; flags: string; fixed: boolean } {
  const { pattern, fixedString = false, ignoreCase = false } = request;
  if (pattern.length === 0) {
    throw new SearchError(
      "Cannot search as pattern is empty; pass the text or regular expression to find",
    );
  }
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new SearchError(
      `Cannot search as pattern is ${pattern.length} characters long; pass at most ${MAX_PATTERN_CHARS}`,
    );
  }
  const source = fixedString ? pattern.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&") : pattern;
  const flags = ignoreCase ? "gmi" : "gm";
  try {
    new RegExp(source, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SearchError(
      `Cannot search as pattern is not a valid regular expression (${reason}); fix it, or pass fixed_string: true to find the text as it is`,
    );
  }
  return { source, flags, fixed: fixedString };
}

function checkLimit(value: number, name: string, minimum: number, maximum: number): number {
  if (!Number.isInteger(value) || value < minimum) {
    throw new SearchError(
      `Cannot search as ${name} must be an integer >= ${minimum}: received ${value}`,
    );
  }
  return Math.min(value, maximum);
}

function startScanners(log: OutputLog, request: SearchRequest): Scanner[] {
  const { streams = "both", cursor = null } = request;
  const names: StreamName[] = streams === "both" ? ["stdout", "stderr"] : [streams];
  const cursors = cursor === null || cursor === ""
    ? names.map((stream): StreamCursor => ({ stream, seq: 1, line: null }))
    : decodeCursor(cursor, names);
  return cursors.map((start) => ({
    ...start,
    seq: Math.min(start.seq, log.latestSeq),
    lineKnown: start.line !== null,
    done: false,
    leading: [],
  }));
}

/** The live scanner furthest behind, so both streams advance together. */
function nextScanner(scanners: Scanner[]): Scanner | null {
  let best: Scanner | null = null;
  for (const scanner of scanners) {
    if (!scanner.done && (best === null || scanner.seq < best.seq)) best = scanner;
  }
  return best;
}

/**
 * Fixes the line number where the block starts when it is not known yet or output was evicted
 * under the cursor; true when the block starts after evicted output.
 */
function settleStart(log: OutputLog, scanner: Scanner, firstSeq: number): boolean {
  const evicted = (log.watermark(scanner.stream) ?? 0) > scanner.seq;
  if (evicted || !scanner.lineKnown) {
    const before = log.lineFeedsBefore(scanner.stream, firstSeq);
    scanner.line = before === null ? null : before + 1;
    scanner.lineKnown = true;
    if (evicted) scanner.leading = [];
  }
  scanner.seq = firstSeq;
  return evicted;
}

function costOf(found: BlockMatch): number {
  let bytes = MATCH_OVERHEAD_BYTES;
  for (const line of [found.text, ...found.before, ...found.after]) {
    bytes += measure(line, 0, line.length).bytes;
  }
  return bytes;
}

function toMatch(found: BlockMatch, scanner: Scanner, runs: number[]): SearchMatch {
  return {
    stream: scanner.stream,
    seq: seqAt(runs, found.matchByte),
    lineSeq: seqAt(runs, found.lineByte),
    line: scanner.line === null ? null : scanner.line + found.lineIndex,
    text: found.text,
    before: found.before,
    after: found.after,
  };
}

/** Position of block offset `offset`, from the (offset, position) pairs of its chunks. */
function seqAt(runs: number[], offset: number): number {
  let low = 0;
  let high = runs.length / 2;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (runs[middle * 2] <= offset) low = middle + 1;
    else high = middle;
  }
  const run = Math.max(0, low - 1) * 2;
  return runs[run + 1] + (offset - runs[run]);
}
