import { type Clock, systemClock } from "./clock.ts";
import type { OutputSource, PortProbe, RegexRunner, SourceChunk } from "./condition_ports.ts";
import type { Conditions, LoopbackAddress } from "./conditions.ts";
import type { StreamName } from "./output_log.ts";
import { type ScanResult, StreamScanner } from "./stream_scanner.ts";

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
  clock?: Clock;
}

/**
 * How long an unterminated last line may stay quiet before it is matched as it stands (a prompt
 * such as `Password: `); complete lines are matched as soon as they arrive.
 */
export const TAIL_GRACE_MS = 50;
/** First pause between port probes; it grows by half per probe up to `PORT_POLL_MAX_MS`. */
export const PORT_POLL_FIRST_MS = 20;
/** Longest pause between port probes: a server that starts listening is seen within this. */
export const PORT_POLL_MAX_MS = 250;

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
  #clock: Clock;
  #resolve: (hit: ConditionHit | null) => void;
  #done = false;
  #unsubscribe: () => void = () => {};
  #cancelIdleCheck: () => void = () => {};
  /** Pending flushes of unterminated lines, per stream. */
  #graceTimers = new Map<StreamName, () => void>();
  #flushes = new Set<StreamName>();
  #cancelProbePause: () => void = () => {};
  #scanners = new Map<StreamName, StreamScanner>();
  /** Next position to scan, per watched stream. */
  #next = new Map<StreamName, number>();
  #pumping: Promise<void> | null = null;
  #again = false;
  #started = false;
  #bytes = 0;
  #decoder = new TextDecoder("utf-8", { ignoreBOM: true });

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
      const start = output.scope === "all" ? 1 : options.cursorSeq;
      options.regex.warm();
      for (const stream of this.#streams()) {
        this.#scanners.set(stream, new StreamScanner(output, options.regex));
        this.#next.set(stream, start);
      }
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
    if (this.#conditions.output !== null) await this.#scan();
    if (this.#done) return;
    this.#started = true;
    if (this.#conditions.bytes !== null) this.#countRetainedBytes();
    if (this.#done) return;
    const onExit = () => this.#onExit().catch((error) => this.#fail(error));
    if (this.#source.ended) return onExit();
    this.#source.exited.then(onExit, onExit);
    if (this.#conditions.idleMs !== null) this.#checkIdle(this.#conditions.idleMs);
    if (this.#conditions.port !== null) this.#probe().catch((error) => this.#fail(error));
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
    this.#cancelProbePause();
    for (const cancel of this.#graceTimers.values()) cancel();
    this.#graceTimers.clear();
    this.#resolve(hit);
  }

  #onAppend(chunk: SourceChunk): void {
    if (this.#done || !this.#streams().includes(chunk.stream)) return;
    if (this.#started && this.#conditions.bytes !== null) this.#addBytes(chunk);
    if (this.#conditions.output === null) return;
    // The stream spoke: its held line changes, and its quiet time starts again.
    this.#graceTimers.get(chunk.stream)?.();
    this.#graceTimers.delete(chunk.stream);
    this.#scan().catch((error) => this.#fail(error));
  }

  async #onExit(): Promise<void> {
    // The final output is captured before exit settles: scan all of it before reporting the exit.
    if (this.#conditions.output !== null) {
      for (const stream of this.#scanners.keys()) this.#flushes.add(stream);
      await this.#scan();
    }
    this.#settle({ kind: "exit" });
  }

  /** Scans until no unscanned chunk is left; concurrent calls share one pass. */
  #scan(): Promise<void> {
    if (this.#pumping !== null) {
      this.#again = true;
      return this.#pumping;
    }
    this.#pumping = this.#drain();
    return this.#pumping;
  }

  async #drain(): Promise<void> {
    // Start after #scan stored this pass, so a pass that finds nothing still clears it.
    await Promise.resolve();
    try {
      do {
        this.#again = false;
        for (let chunk = this.#nextChunk(); chunk !== null; chunk = this.#nextChunk()) {
          this.#next.set(chunk.stream, chunk.seq + chunk.bytes.length);
          const scanner = this.#scanners.get(chunk.stream)!;
          const result = await scanner.scan(chunk.seq, this.#decoder.decode(chunk.bytes));
          if (this.#report(chunk.stream, result)) return;
        }
        for (const stream of [...this.#flushes]) {
          this.#flushes.delete(stream);
          if (this.#report(stream, await this.#scanners.get(stream)!.flush())) return;
        }
      } while ((this.#again || this.#flushes.size > 0) && !this.#done);
      this.#armGraceTimers();
    } finally {
      // Cleared in the same turn as the last check, so no append can slip between them.
      this.#pumping = null;
    }
  }

  /** Settles on a match or a failure; true when the watch is over. */
  #report(stream: StreamName, result: ScanResult): boolean {
    if (this.#done) return true;
    if (result.kind === "failed") this.#settle({ kind: "failed", error: result.error });
    if (result.kind === "match") {
      const startSeq = this.#options.cursorSeq;
      this.#settle({
        kind: "output",
        stream,
        text: result.text,
        seq: result.seq,
        page: { startSeq, endSeq: Math.max(startSeq, result.lineEndSeq) },
      });
    }
    return this.#done;
  }

  /** Flushes each held unterminated line once its stream has been quiet for `TAIL_GRACE_MS`. */
  #armGraceTimers(): void {
    for (const [stream, scanner] of this.#scanners) {
      if (!scanner.holding || this.#graceTimers.has(stream)) continue;
      this.#graceTimers.set(
        stream,
        this.#clock.setTimer(() => {
          this.#graceTimers.delete(stream);
          this.#flushes.add(stream);
          this.#scan().catch((error) => this.#fail(error));
        }, TAIL_GRACE_MS),
      );
    }
  }

  /** The oldest unscanned retained chunk of the watched streams. */
  #nextChunk(): SourceChunk | null {
    let oldest: SourceChunk | null = null;
    for (const [stream, seq] of this.#next) {
      const first = this.#source.chunksFrom(stream, seq)[Symbol.iterator]().next();
      if (first.done) continue;
      if (oldest === null || first.value.seq < oldest.seq) oldest = first.value;
    }
    return oldest;
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
    const quietMs = this.#clock.now() - this.#source.lastOutputAt();
    if (quietMs >= idleMs) return this.#settle({ kind: "idle", idleMs: quietMs });
    this.#cancelIdleCheck = this.#clock.setTimer(() => this.#checkIdle(idleMs), idleMs - quietMs);
  }

  async #probe(): Promise<void> {
    const { port, hosts } = this.#conditions.port!;
    const { probe } = this.#options;
    const unavailable = hosts.map((host) => probe.unavailable(host)).find((text) => text !== null);
    if (unavailable !== undefined) return this.#settle({ kind: "failed", error: unavailable });
    let pauseMs = PORT_POLL_FIRST_MS;
    while (!this.#done) {
      const open = await Promise.all(
        hosts.map((host) => probe.accepts(host, port).then((ok) => ok ? host : null, () => null)),
      );
      const host = open.find((found) => found !== null);
      if (host !== undefined && host !== null) return this.#settle({ kind: "port", host, port });
      await this.#pause(pauseMs);
      pauseMs = Math.min(pauseMs * 1.5, PORT_POLL_MAX_MS);
    }
  }

  /** Resolves after `ms`, or at once when the watch ends. */
  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.#done) return resolve();
      const cancel = this.#clock.setTimer(resolve, ms);
      this.#cancelProbePause = () => {
        cancel();
        resolve();
      };
    });
  }
}
