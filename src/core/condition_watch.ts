import { systemClock, type TimerClock } from "./clock.ts";
import type { OutputSource, PortProbe, RegexRunner, SourceChunk } from "./condition_ports.ts";
import type { Conditions, LoopbackAddress } from "./conditions.ts";
import type { StreamName } from "./output_log.ts";
import { OutputMatcher, type OutputOutcome } from "./output_matcher.ts";
import { waitForPort } from "./port_wait.ts";

/** A range of positions, `endSeq` exclusive. */
export interface SeqRange {
  startSeq: number;
  endSeq: number;
}

/** Which condition held first, with what the caller reports about it. */
export type ConditionHit =
  | {
    kind: "output";
    stream: StreamName;
    /** The matched text (at most `MAX_MATCH_TEXT` characters). */
    text: string;
    /** Position of the first matched byte. */
    seq: number;
    /** From the cursor up to and including the matched line (empty when it was already read). */
    page: SeqRange;
  }
  | { kind: "bytes"; bytes: number; /** One past the byte that reached the count. */ seq: number }
  | { kind: "idle"; /** How long the output had been quiet. */ idleMs: number }
  | { kind: "port"; host: LoopbackAddress; port: number }
  | { kind: "exit" }
  | { kind: "failed"; error: string };

/** What the watcher needs besides the output and the conditions. */
export interface WatchOptions {
  /** Where "new" output starts: `since_seq`, else the server-side cursor (1 for execute). */
  cursorSeq: number;
  regex: RegexRunner;
  probe: PortProbe;
  /** Must be the clock of `source.lastOutputAt()`. @default {systemClock} */
  clock?: TimerClock;
}

/** Starts watching; `result` settles with the first condition that holds. */
export function watchConditions(
  source: OutputSource,
  conditions: Conditions,
  options: WatchOptions,
): ConditionWatch {
  return new ConditionWatch(source, conditions, options);
}

/**
 * Watches one execution for its conditions. Output and bytes are checked first (over what is
 * already captured, then as it arrives), then exit, idle and port; while waiting, the first to
 * be noticed wins. Exit always ends the watch, after the final output was scanned.
 */
export class ConditionWatch implements Disposable {
  /** The first condition that held, or null once closed before any did. */
  readonly result: Promise<ConditionHit | null>;

  #source: OutputSource;
  #conditions: Conditions;
  #options: WatchOptions;
  #clock: TimerClock;
  #resolve: (hit: ConditionHit | null) => void;
  #done = false;
  #stop = new AbortController();
  #unsubscribe: () => void = () => {};
  #cancelIdleCheck: () => void = () => {};
  #output: OutputMatcher | null = null;
  #started = false;
  #bytes = 0;

  constructor(source: OutputSource, conditions: Conditions, options: WatchOptions) {
    this.#source = source;
    this.#conditions = conditions;
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    const { promise, resolve } = Promise.withResolvers<ConditionHit | null>();
    this.result = promise;
    this.#resolve = resolve;
    const { output } = conditions;
    if (output !== null) {
      this.#output = new OutputMatcher(source, output, {
        streams: this.#streams(),
        startSeq: output.scope === "all" ? 1 : options.cursorSeq,
        regex: options.regex,
        clock: this.#clock,
        onOutcome: (outcome) => this.#settle(this.#outputHit(outcome)),
      });
    }
    if (output !== null || conditions.bytes !== null) {
      this.#unsubscribe = source.onAppend((chunk) => this.#onAppend(chunk));
    }
    this.#start().catch((error) => this.#fail(error));
  }

  /** Stops every probe, timer and subscription; `result` settles with null if nothing held. */
  close(): void {
    this.#settle(null);
  }

  [Symbol.dispose](): void {
    this.close();
  }

  async #start(): Promise<void> {
    await this.#output?.scan();
    if (this.#done) return;
    this.#started = true;
    if (this.#conditions.bytes !== null) this.#countRetainedBytes();
    if (this.#done) return;
    const onExit = () => this.#onExit().catch((error) => this.#fail(error));
    if (this.#source.ended) return onExit();
    this.#source.exited.then(onExit, onExit);
    if (this.#conditions.idleMs !== null) this.#checkIdle(this.#conditions.idleMs);
    const { port } = this.#conditions;
    if (port !== null) {
      const { probe } = this.#options;
      const hit = await waitForPort(port, { probe, clock: this.#clock, signal: this.#stop.signal });
      if (hit !== null) this.#settle(hit);
    }
  }

  #streams(): StreamName[] {
    const { streams } = this.#conditions;
    return streams === "both" ? ["stdout", "stderr"] : [streams];
  }

  /** An unexpected error ends the watch with its text rather than escaping as a rejection. */
  #fail(error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.#settle({ kind: "failed", error: `Cannot watch the conditions: ${reason}` });
  }

  #settle(hit: ConditionHit | null): void {
    if (this.#done) return;
    this.#done = true;
    this.#unsubscribe();
    this.#cancelIdleCheck();
    this.#stop.abort();
    this.#output?.close();
    this.#resolve(hit);
  }

  #outputHit(outcome: OutputOutcome): ConditionHit {
    if (outcome.kind === "failed") return outcome;
    const startSeq = this.#options.cursorSeq;
    const { stream, text, seq, lineEndSeq } = outcome;
    return {
      kind: "output",
      stream,
      text,
      seq,
      page: { startSeq, endSeq: Math.max(startSeq, lineEndSeq) },
    };
  }

  #onAppend(chunk: SourceChunk): void {
    if (this.#done || !this.#streams().includes(chunk.stream)) return;
    if (this.#started && this.#conditions.bytes !== null) this.#addBytes(chunk);
    this.#output?.appended(chunk.stream);
  }

  async #onExit(): Promise<void> {
    // The final output is captured before exit settles: scan all of it before reporting the exit.
    await this.#output?.finish();
    this.#settle({ kind: "exit" });
  }

  #countRetainedBytes(): void {
    const { cursorSeq } = this.#options;
    const chunks = this.#streams().flatMap((
      stream,
    ) => [...this.#source.chunksFrom(stream, cursorSeq)]);
    chunks.sort((a, b) => a.seq - b.seq);
    for (const chunk of chunks) this.#addBytes(chunk);
  }

  #addBytes(chunk: SourceChunk): void {
    const wanted = this.#conditions.bytes!;
    const before = this.#bytes;
    this.#bytes += chunk.bytes.length;
    if (this.#bytes >= wanted) {
      this.#settle({ kind: "bytes", bytes: this.#bytes, seq: chunk.seq + (wanted - before) });
    }
  }

  #checkIdle(idleMs: number): void {
    if (this.#done) return;
    const quietMs = this.#clock.nowMs() - this.#source.lastOutputAt();
    if (quietMs >= idleMs) return this.#settle({ kind: "idle", idleMs: quietMs });
    this.#cancelIdleCheck = this.#clock.setTimer(() => this.#checkIdle(idleMs), idleMs - quietMs);
  }
}
