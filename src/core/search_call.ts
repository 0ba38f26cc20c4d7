import type { OutputLog, StreamName } from "./output_log.ts";
import type { RegexRunner } from "./condition_ports.ts";
import { type BlockMatch, type BlockQuery, type BlockResult, utf8Length } from "./search_block.ts";
import { decodeCursor, encodeCursor, SearchError, type StreamCursor } from "./search_cursor.ts";
import { type Block, readBlock, seqAt } from "./search_reader.ts";
import type { SearchMatch, SearchRequest, SearchResult, SearchStop } from "./search_types.ts";

const MAX_PATTERN_CHARS = 10_000;
const MAX_LINE_CHARS = 500;
/** Per-match cost of the fields around its text, charged against `maxOutputBytes`. */
const MATCH_OVERHEAD_BYTES = 80;

/** What a search call gets from its `Searcher`. */
export interface SearchSettings {
  regex: RegexRunner;
  /** `performance.now()` by which the call returns. */
  deadline: number;
  blockBytes: number;
}

interface Scanner extends StreamCursor {
  done: boolean;
  leading: string[];
}

/** A block read ahead for a scanner while the worker matched the one before it. */
interface Prefetch {
  scanner: Scanner;
  seq: number;
  block: Block | null;
}

type Stop = { lineByte: number };

/** One search: scanners per stream, advanced block by block until done or a limit. */
export class SearchCall {
  #log: OutputLog;
  #settings: SearchSettings;
  #source: string;
  #flags: string;
  #contextLines: number;
  #maxMatches: number;
  #budget: number;
  #scanners: Scanner[];
  #matches: SearchMatch[] = [];
  #stoppedBy: SearchStop | null = null;
  #slowPattern = false;
  #evicted = false;
  #scannedBytes = 0;
  #prefetch: Prefetch | null = null;

  constructor(log: OutputLog, request: SearchRequest, settings: SearchSettings) {
    this.#log = log;
    this.#settings = settings;
    ({ source: this.#source, flags: this.#flags } = compile(request));
    this.#contextLines = checkLimit(request.contextLines ?? 2, "context_lines", 0, 10);
    this.#maxMatches = checkLimit(request.maxMatches ?? 50, "max_matches", 1, 1000);
    this.#budget = checkLimit(request.maxOutputBytes, "max_output_bytes", 1, Infinity);
    this.#scanners = startScanners(log, request);
  }

  async run(): Promise<SearchResult> {
    while (await this.#step()) { /* until done or a limit */ }
    const complete = this.#scanners.every((scanner) => scanner.done);
    return {
      matches: this.#matches.sort((a, b) => a.seq - b.seq),
      nextCursor: encodeCursor(this.#scanners),
      complete,
      stoppedBy: complete ? null : this.#stoppedBy,
      slowPattern: this.#slowPattern,
      evicted: this.#evicted,
      scannedBytes: this.#scannedBytes,
      latestSeq: this.#log.latestSeq,
    };
  }

  /** Matches one block; false when the call is over. */
  async #step(): Promise<boolean> {
    const scanner = nextScanner(this.#scanners);
    if (scanner === null) return false;
    if (this.#matches.length >= this.#maxMatches) return this.#stop("max_matches");
    const block = this.#blockFor(scanner);
    if (block === null) {
      scanner.done = true;
      return true;
    }
    if (performance.now() >= this.#settings.deadline) return this.#stop("time_limit");
    this.#evicted = settleStart(this.#log, scanner, block.firstSeq) || this.#evicted;
    const result = await this.#match(scanner, block);
    if (result === "timeout") {
      this.#slowPattern = true;
      return this.#stop("time_limit");
    }
    const stop = this.#take(result, scanner, block);
    if (stop !== null) {
      scanner.seq = seqAt(block.runs, stop.lineByte);
      scanner.leading = [];
      this.#scannedBytes += stop.lineByte;
      return false;
    }
    this.#scannedBytes += block.searched;
    scanner.seq = block.resumeSeq;
    scanner.leading = result.trailing;
    scanner.done = block.done;
    return true;
  }

  #stop(reason: SearchStop): false {
    this.#stoppedBy = reason;
    return false;
  }

  #blockFor(scanner: Scanner): Block | null {
    const prefetch = this.#prefetch;
    this.#prefetch = null;
    if (prefetch !== null && prefetch.scanner === scanner && prefetch.seq === scanner.seq) {
      return prefetch.block;
    }
    return this.#read(scanner, scanner.seq);
  }

  #read(scanner: Scanner, seq: number): Block | null {
    const { blockBytes } = this.#settings;
    return readBlock(this.#log, {
      stream: scanner.stream,
      seq,
      blockBytes,
      contextLines: this.#contextLines,
    });
  }

  /** Matches in the worker, reading the next block meanwhile. */
  async #match(scanner: Scanner, block: Block): Promise<BlockResult | "timeout"> {
    const query: BlockQuery = {
      source: this.#source,
      flags: this.#flags,
      bytes: block.bytes,
      searchedBytes: block.searched,
      maxMatches: this.#maxMatches - this.#matches.length,
      contextLines: this.#contextLines,
      leading: scanner.leading,
      maxLineChars: MAX_LINE_CHARS,
    };
    const { regex, deadline } = this.#settings;
    const result = regex.matchBlock(query, deadline);
    if (!block.done) {
      const seq = block.resumeSeq;
      this.#prefetch = { scanner, seq, block: this.#read(scanner, seq) };
    }
    return await result;
  }

  /** Takes the block's matches within the budget; where to stop, or null to go on. */
  #take(result: BlockResult, scanner: Scanner, block: Block): Stop | null {
    for (const found of result.matches) {
      const cost = costOf(found);
      if (this.#matches.length > 0 && cost > this.#budget) {
        this.#stoppedBy = "max_output_bytes";
        return found;
      }
      this.#budget -= cost;
      this.#matches.push(toMatch(this.#log, found, scanner.stream, block.runs));
    }
    if (result.next === null) return null;
    this.#stoppedBy = "max_matches";
    return result.next;
  }
}

function compile(request: SearchRequest): { source: string; flags: string } {
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
  return { source, flags };
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
    ? names.map((stream): StreamCursor => ({ stream, seq: 1 }))
    : decodeCursor(cursor, names);
  return cursors.map((start) => ({
    ...start,
    seq: Math.min(start.seq, log.latestSeq),
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

/** Moves the scanner to its block; true when the block starts after evicted output. */
function settleStart(log: OutputLog, scanner: Scanner, firstSeq: number): boolean {
  const evicted = (log.watermark(scanner.stream) ?? 0) > scanner.seq;
  if (evicted) scanner.leading = [];
  scanner.seq = firstSeq;
  return evicted;
}

function costOf(found: BlockMatch): number {
  let bytes = MATCH_OVERHEAD_BYTES;
  for (const line of [found.text, ...found.before, ...found.after]) {
    bytes += utf8Length(line, 0, line.length);
  }
  return bytes;
}

function toMatch(
  log: OutputLog,
  found: BlockMatch,
  stream: StreamName,
  runs: number[],
): SearchMatch {
  const lineSeq = seqAt(runs, found.lineByte);
  return {
    stream,
    seq: seqAt(runs, found.matchByte),
    lineSeq,
    line: lineNumber(log, stream, lineSeq),
    text: found.text,
    before: found.before,
    after: found.after,
  };
}

/**
 * The 1-based line number at `seq`, from the line feeds counted at capture (only for matches,
 * so that scanning counts nothing); null when evicted lines were not counted or `seq` itself
 * was evicted while the block was matched.
 */
function lineNumber(log: OutputLog, stream: StreamName, seq: number): number | null {
  if ((log.watermark(stream) ?? 0) > seq) return null;
  const before = log.lineFeedsBefore(stream, seq);
  return before === null ? null : before + 1;
}
