/**
 * The byte-level model of the output layer and the scenario runner shared by the property tests
 * of the all-memory log (output_properties_test.ts) and the spooled log
 * (spooled_log_properties_test.ts): random interleavings of stdout and stderr chunks
 * (multi-byte characters split across chunks, some invalid bytes) fed through `Utf8Normalizer`
 * into an `OutputLog`, with random reads in between, every page checked against a model that
 * knows each position's stream, byte and whether retention has dropped it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type {
  OutputLog,
  OutputPage,
  StreamName,
  StreamSelection,
} from "../../src/core/output_log.ts";
import { isContinuationByte, utf8CharLengthAt, Utf8Normalizer } from "../../src/core/utf8.ts";

/**
 * The seed of a property test: fixed by default (printed by the caller), so CI is reproducible;
 * `YIELDSHELL_TEST_SEED=<n>` (or the older `YIELDSHELL_FC_SEED`) replays another one and
 * `random` explores.
 */
export function seedFromEnv(fixed: number): number {
  const value = Deno.env.get("YIELDSHELL_TEST_SEED") || Deno.env.get("YIELDSHELL_FC_SEED");
  if (value === undefined || value === "") return fixed;
  return value === "random" ? Date.now() % 2 ** 31 : Number(value);
}

export const encoder = new TextEncoder();
export const STREAMS: readonly StreamName[] = ["stdout", "stderr"];

/** What the normalizer must produce: the whole stream decoded at once, invalid bytes as U+FFFD. */
export function normalizeAtOnce(raw: Uint8Array): Uint8Array {
  return encoder.encode(decode(raw));
}

/** Decodes as the log does: invalid bytes as U+FFFD, a BOM kept as text. */
export function decode(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The model: every captured position, its stream and byte, and which ones retention dropped.

/**
 * The log as a list of bytes by position. Retention is modelled independently of RingBuffer:
 * each stream keeps the longest suffix of its bytes that fits the capacity and starts on a
 * character boundary (appends are whole characters, so this is what chunk-wise eviction keeps).
 */
export class Model {
  readonly capacityBytes: number;
  /** Index = position - 1. */
  readonly streamOf: StreamName[] = [];
  readonly byteOf: number[] = [];
  readonly positions: Record<StreamName, number[]> = { stdout: [], stderr: [] };
  #dropped: boolean[] | null = null;
  #floors: Record<StreamName, number> = { stdout: 0, stderr: 0 };

  constructor(capacityBytes: number) {
    this.capacityBytes = capacityBytes;
  }

  get latestSeq(): number {
    return this.byteOf.length + 1;
  }

  append(stream: StreamName, bytes: Uint8Array): void {
    this.#dropped = null;
    for (const byte of bytes) {
      this.streamOf.push(stream);
      this.byteOf.push(byte);
      this.positions[stream].push(this.byteOf.length);
    }
  }

  /** How many of `stream`'s oldest bytes are gone. */
  droppedCount(stream: StreamName): number {
    const positions = this.positions[stream];
    let cut = Math.max(0, positions.length - this.capacityBytes);
    while (cut < positions.length && isContinuationByte(this.byte(positions[cut]))) cut++;
    // Whole segments a spool's server-wide total dropped: every position below the floor.
    const floor = this.#floors[stream];
    while (cut < positions.length && positions[cut] < floor) cut++;
    return cut;
  }

  /**
   * Drops every position of `stream` below `floor` as well (a spool's server-wide total evicts
   * whole segments, which the capacity rule alone does not describe); floors only rise.
   */
  raiseFloor(stream: StreamName, floor: number): void {
    if (floor <= this.#floors[stream]) return;
    this.#floors[stream] = floor;
    this.#dropped = null;
  }

  /** Dropped-ness of every position right now (index = position). */
  droppedNow(): boolean[] {
    if (this.#dropped !== null) return this.#dropped;
    const dropped = new Array<boolean>(this.latestSeq).fill(false);
    for (const stream of STREAMS) {
      const count = this.droppedCount(stream);
      for (let i = 0; i < count; i++) dropped[this.positions[stream][i]] = true;
    }
    return this.#dropped = dropped;
  }

  /** One past the newest dropped position of `stream`, or 0 (the ring buffer's watermark). */
  watermark(stream: StreamName): number {
    const count = this.droppedCount(stream);
    return count === 0 ? 0 : this.positions[stream][count - 1] + 1;
  }

  byte(position: number): number {
    return this.byteOf[position - 1];
  }

  stream(position: number): StreamName {
    return this.streamOf[position - 1];
  }

  /** The bytes `stream` ever received (what resume polling must deliver when nothing drops). */
  streamBytes(stream: StreamName): Uint8Array {
    return new Uint8Array(this.positions[stream].map((position) => this.byte(position)));
  }
}

export function isSelected(streams: StreamSelection, stream: StreamName): boolean {
  return streams === "both" || streams === stream;
}

/** Checks one page of `log.read()` against the model; returns the positions it delivered. */
export function checkPage(
  model: Model,
  request: { startSeq: number; maxBytes: number; streams: StreamSelection },
  page: OutputPage,
): number[] {
  const { maxBytes, streams } = request;
  const latest = model.latestSeq;
  const start = Math.min(Math.max(request.startSeq, 1), latest);
  const dropped = model.droppedNow();
  const kept = (p: number) => p < latest && isSelected(streams, model.stream(p)) && !dropped[p];
  const where = `page ${JSON.stringify(page)} for ${JSON.stringify({ ...request, start })}`;

  assert.ok(start <= page.nextSeq && page.nextSeq <= latest, `nextSeq out of range: ${where}`);

  // Content: exactly the retained bytes of the selected streams in [start, nextSeq).
  const delivered: number[] = [];
  const expected: Record<StreamName, number[]> = { stdout: [], stderr: [] };
  for (let p = start; p < page.nextSeq; p++) {
    if (!kept(p)) continue;
    delivered.push(p);
    expected[model.stream(p)].push(model.byte(p));
  }
  const onBoundary = (p: number) => p >= latest || !isContinuationByte(model.byte(p));
  for (const stream of STREAMS) {
    const bytes = new Uint8Array(expected[stream]);
    assert.equal(page[stream], decode(bytes), `${stream} content: ${where}`);
    // From a cursor on a character boundary the page is those very bytes: no U+FFFD from a cut.
    if (onBoundary(start)) assert.deepEqual(encoder.encode(page[stream]), bytes, where);
  }
  assert.equal(page.startSeq, delivered[0] ?? page.nextSeq, `startSeq: ${where}`);

  // capped exactly when retained selected output lies beyond the page.
  let nextKept = page.nextSeq;
  while (nextKept < latest && !kept(nextKept)) nextKept++;
  assert.equal(page.capped, nextKept < latest, `capped: ${where}`);

  // Budget: within maxBytes, or one whole character when not even one fits.
  const taken = delivered.length;
  if (taken > maxBytes) {
    assert.ok(maxBytes > 0, `bytes taken from a zero budget: ${where}`);
    const only = new Uint8Array(delivered.map((p) => model.byte(p)));
    assert.equal(utf8CharLengthAt(only, 0), taken, `over budget by more than a char: ${where}`);
  }
  if (page.capped) {
    // Maximal: the next character would not have fitted.
    if (maxBytes === 0) assert.equal(taken, 0, where);
    else {
      assert.ok(taken > 0, `a capped page made no progress: ${where}`);
      const run: number[] = [];
      for (let p = nextKept; p < latest && run.length < 4; p++) {
        if (!kept(p) || model.stream(p) !== model.stream(nextKept)) break;
        run.push(model.byte(p));
      }
      const nextChar = utf8CharLengthAt(new Uint8Array(run), 0);
      assert.ok(taken + nextChar > maxBytes, `capped although the next char fits: ${where}`);
    }
  } else {
    // Uncapped: the cursor skips evicted ranges and never moves back (defect 8.1 #1).
    let want = start;
    if (delivered.length > 0) want = Math.max(want, delivered[delivered.length - 1] + 1);
    for (const stream of STREAMS) {
      if (isSelected(streams, stream)) want = Math.max(want, model.watermark(stream));
    }
    assert.equal(page.nextSeq, want, `uncapped nextSeq: ${where}`);
  }

  // evicted exactly when the requested range [start, ...) overlaps dropped selected bytes,
  // that is when a selected stream's newest dropped position is at or after start.
  const overlaps = STREAMS.some((stream) =>
    isSelected(streams, stream) && model.watermark(stream) > start
  );
  assert.equal(page.evicted, overlaps, `evicted: ${where}`);

  // Pages never split a character: from a cursor on a boundary, the page ends on one too.
  if (onBoundary(start) && kept(page.nextSeq)) {
    assert.ok(onBoundary(page.nextSeq), `page ends inside a character: ${where}`);
  }
  return delivered;
}

/**
 * Checks where a tail of `lines` lines within `maxBytes` starts: the retained bytes of the
 * selected streams from there on must be exactly the expected tail (a start anywhere in the
 * other stream's gap before it is as good).
 */
export function checkTailStart(
  model: Model,
  tail: { lines: number; maxBytes: number; streams: StreamSelection },
  startSeq: number,
): void {
  const { lines, maxBytes, streams } = tail;
  const dropped = model.droppedNow();
  const retained: number[] = [];
  for (let p = 1; p < model.latestSeq; p++) {
    if (!dropped[p] && isSelected(streams, model.stream(p))) retained.push(p);
  }
  const where = `tail ${JSON.stringify(tail)} started at ${startSeq}`;
  assert.ok(startSeq >= 1 && startSeq <= model.latestSeq, where);
  const index = expectedTailIndex(model, retained, lines, maxBytes);
  assert.equal(retained.filter((p) => p < startSeq).length, index, where);
}

/** Index into `retained` (selected retained positions) of the first byte of the tail. */
function expectedTailIndex(
  model: Model,
  retained: readonly number[],
  lines: number,
  maxBytes: number,
): number {
  const length = retained.length;
  let fromLines = 0;
  let counted = 0;
  // A newline in the very last byte ends the last line (tail -n), so it is not counted.
  for (let i = length - 2; i >= 0; i--) {
    if (model.byte(retained[i]) === 0x0a && ++counted === lines) {
      fromLines = i + 1;
      break;
    }
  }
  let fromBytes = Math.max(0, length - maxBytes);
  while (fromBytes < length && isContinuationByte(model.byte(retained[fromBytes]))) fromBytes++;
  return Math.max(fromLines, fromBytes);
}

// ---------------------------------------------------------------------------------------------
// Generators.

/** Characters of 1 to 4 bytes, newlines, a BOM; never U+FFFD, so a stray one means a split. */
const character = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom("a", "b", "z", "0", " ", "\n", "\t") },
  { weight: 3, arbitrary: fc.constantFrom("é", "ß", "€", "中", "\u2028", "\uFEFF", "𝄞", "😀") },
  {
    weight: 1,
    arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }).filter((c) =>
      c !== "\uFFFD"
    ),
  },
);

/** Byte runs that are not valid UTF-8 on their own. */
const invalidBytes = fc.constantFrom(
  [0xff],
  [0x80],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
);

/** One stream's raw output: text, optionally corrupted, cut at random offsets into chunks. */
export const streamOutput = (withInvalid: boolean) =>
  fc.record({
    text: fc.string({ unit: character, maxLength: 200, size: "medium" }),
    corruptions: withInvalid
      ? fc.array(fc.record({ at: fc.nat(), bytes: invalidBytes }), { maxLength: 3 })
      : fc.constant([]),
    cuts: fc.array(fc.nat(), { maxLength: 60, size: "medium" }),
  }).map(({ text, corruptions, cuts }) => {
    let raw = [...encoder.encode(text)];
    for (const { at, bytes } of corruptions) {
      const index = at % (raw.length + 1);
      raw = [...raw.slice(0, index), ...bytes, ...raw.slice(index)];
    }
    const offsets = [...new Set(cuts.map((cut) => 1 + (cut % Math.max(1, raw.length - 1))))]
      .filter((offset) => offset < raw.length)
      .sort((a, b) => a - b);
    const chunks: Uint8Array[] = [];
    let from = 0;
    for (const offset of [...offsets, raw.length]) {
      if (offset > from) chunks.push(new Uint8Array(raw.slice(from, offset)));
      from = offset;
    }
    return { raw: new Uint8Array(raw), chunks };
  });

export const streamSelection = fc.constantFrom<StreamSelection>("both", "stdout", "stderr");
export const pageCap = fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 400 }));

export type ReadOp =
  | { kind: "resume"; maxBytes: number }
  | { kind: "since"; streams: StreamSelection; maxBytes: number }
  /** `at` picks any start from -3 to latestSeq + 2, boundaries or not. */
  | { kind: "peek"; streams: StreamSelection; at: number; maxBytes: number }
  | { kind: "tail"; streams: StreamSelection; lines: number; maxBytes: number };

export const readOp: fc.Arbitrary<ReadOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("resume"), maxBytes: pageCap }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("since"),
      streams: streamSelection,
      maxBytes: pageCap,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("peek"),
      streams: streamSelection,
      at: fc.nat(),
      maxBytes: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("tail"),
      streams: streamSelection,
      lines: fc.integer({ min: 1, max: 6 }),
      maxBytes: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constant(100_000)),
    }),
  },
);

export type Step = StreamName | ReadOp;

export const scenario = fc.boolean().chain((withInvalid) =>
  fc.record({
    withInvalid: fc.constant(withInvalid),
    capacityBytes: fc.oneof(
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 41, max: 600 }),
      fc.constant(1_000_000),
    ),
    stdout: streamOutput(withInvalid),
    stderr: streamOutput(withInvalid),
    steps: fc.array(
      fc.oneof<fc.Arbitrary<Step>[]>(
        fc.constant<Step>("stdout"),
        fc.constant<Step>("stderr"),
        readOp,
      ),
      { maxLength: 300, size: "large" },
    ),
    finalCap: fc.integer({ min: 1, max: 30 }),
  })
);

/** A generated scenario. */
export type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/**
 * Runs one scenario against `log` and `model` (both empty, with the same retention) and checks
 * every page, tail and the final drain; `onAppend` runs after each append (to raise floors).
 */
export function runScenario(
  s: Scenario,
  log: OutputLog,
  model: Model,
  onAppend?: (model: Model, log: OutputLog) => void,
): void {
  const normalizers = { stdout: new Utf8Normalizer(), stderr: new Utf8Normalizer() };
  const pending = { stdout: [...s.stdout.chunks], stderr: [...s.stderr.chunks] };
  const appended: Record<StreamName, Uint8Array[]> = { stdout: [], stderr: [] };

  // As Execution's pump does: normalize, then append whatever complete characters came out.
  const emit = (stream: StreamName, bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    appended[stream].push(bytes.slice());
    model.append(stream, bytes);
    log.append(stream, bytes);
    onAppend?.(model, log);
    assert.equal(log.latestSeq, model.latestSeq);
    assert.equal(
      log.latestSeq,
      log.bytesCaptured("stdout") + log.bytesCaptured("stderr") + 1,
      "latestSeq is bytes captured plus one",
    );
  };

  // Resume polling state: each position is delivered once or skipped as dropped, never both.
  let resumeCursor = 1;
  const deliveredTimes = new Map<number, number>();
  const skipped = new Set<number>();
  let sawEvicted = false;
  const resume = (maxBytes: number) => {
    const page = log.read({ startSeq: resumeCursor, maxBytes });
    const delivered = checkPage(
      model,
      { startSeq: resumeCursor, maxBytes, streams: "both" },
      page,
    );
    assert.ok(page.nextSeq >= resumeCursor, "nextSeq never decreases along a polling loop");
    for (const p of delivered) deliveredTimes.set(p, (deliveredTimes.get(p) ?? 0) + 1);
    const kept = new Set(delivered);
    for (let p = resumeCursor; p < page.nextSeq; p++) if (!kept.has(p)) skipped.add(p);
    if (!s.withInvalid) {
      assert.ok(!(page.stdout + page.stderr).includes("\uFFFD"), "a page split a character");
    }
    sawEvicted ||= page.evicted;
    resumeCursor = page.nextSeq;
    return page;
  };

  // Explicit since_seq loops, one per stream selection (out-of-band: they move no shared cursor).
  const sinceCursors: Record<StreamSelection, number> = { both: 1, stdout: 1, stderr: 1 };

  const run = (op: ReadOp) => {
    switch (op.kind) {
      case "resume":
        resume(op.maxBytes);
        return;
      case "since": {
        const startSeq = sinceCursors[op.streams];
        const request = { startSeq, maxBytes: op.maxBytes, streams: op.streams };
        const page = log.read(request);
        checkPage(model, request, page);
        assert.ok(page.nextSeq >= startSeq, "a since_seq loop never moves backwards");
        sinceCursors[op.streams] = page.nextSeq;
        return;
      }
      case "peek": {
        const startSeq = (op.at % (log.latestSeq + 6)) - 3;
        const request = { startSeq, maxBytes: op.maxBytes, streams: op.streams };
        checkPage(model, request, log.read(request));
        return;
      }
      case "tail": {
        const { lines, maxBytes, streams } = op;
        const startSeq = log.tailStart({ lines, maxBytes, streams });
        checkTailStart(model, op, startSeq);
        const page = log.read({ startSeq, maxBytes, streams });
        checkPage(model, { startSeq, maxBytes, streams }, page);
        assert.equal(page.capped, false, "a tail fits its own byte budget");
        return;
      }
    }
  };

  for (const step of s.steps) {
    if (step === "stdout" || step === "stderr") {
      const chunk = pending[step].shift();
      if (chunk !== undefined) emit(step, normalizers[step].push(chunk));
    } else run(step);
  }
  for (const stream of STREAMS) {
    for (const chunk of pending[stream]) emit(stream, normalizers[stream].push(chunk));
    emit(stream, normalizers[stream].flush());
  }

  // Drain the resume loop; each page makes progress, so latestSeq pages are enough.
  for (let pages = 0; pages <= model.latestSeq; pages++) {
    if (!resume(s.finalCap).capped) break;
  }
  assert.equal(resumeCursor, log.latestSeq, "a drained polling loop is caught up");

  // Each position was delivered exactly once, or dropped before polling reached it.
  for (let p = 1; p < log.latestSeq; p++) {
    const times = deliveredTimes.get(p) ?? 0;
    assert.equal(times + (skipped.has(p) ? 1 : 0), 1, `position ${p} delivered ${times}×`);
  }
  assert.equal(sawEvicted, skipped.size > 0, "evicted was reported iff bytes were skipped");

  for (const stream of STREAMS) {
    // The normalizer's streamed output is the one-shot normalization of the raw bytes.
    assert.deepEqual(concat(appended[stream]), normalizeAtOnce(s[stream].raw));
    if (model.droppedCount("stdout") === 0 && model.droppedCount("stderr") === 0) {
      // Nothing evicted: polling returned every byte, in order, exactly once.
      const polled = model.positions[stream].filter((p) => deliveredTimes.has(p));
      assert.equal(polled.length, model.positions[stream].length);
      assert.deepEqual(model.streamBytes(stream), normalizeAtOnce(s[stream].raw));
    }
  }
  if (skipped.size === 0) assert.equal(deliveredTimes.size, log.latestSeq - 1);
}
