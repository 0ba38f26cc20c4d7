import type { TimerClock } from "./clock.ts";
import type { OutputSource, RegexRunner, SourceChunk } from "./condition_ports.ts";
import type { OutputCondition } from "./conditions.ts";
import type { StreamName } from "./output_log.ts";
import { type ScanResult, StreamScanner } from "./stream_scanner.ts";

/**
 * How long an unterminated last line may stay quiet before it is matched as it stands (a prompt
 * such as `Password: `); complete lines are matched as soon as they arrive.
 */
export const TAIL_GRACE_MS = 50;

/** What a match or a failure of the output condition reports. */
export type OutputOutcome =
  | { kind: "output"; stream: StreamName; text: string; seq: number; lineEndSeq: number }
  | { kind: "failed"; error: string };

/** Options for {@linkcode OutputMatcher}. */
export interface OutputMatcherOptions {
  streams: readonly StreamName[];
  /** First position scanned. */
  startSeq: number;
  regex: RegexRunner;
  clock: TimerClock;
  /** Called once, with the first match or failure. */
  onOutcome(outcome: OutputOutcome): void;
}

/**
 * The output condition of one watch: scans retained chunks of the watched streams in position
 * order, one pass at a time, and flushes each stream's unterminated line once the stream has been
 * quiet for `TAIL_GRACE_MS`. It pulls chunks from the source, so a watcher that falls behind a
 * flood holds no copies (output evicted before it was scanned is skipped).
 */
export class OutputMatcher {
  #source: OutputSource;
  #options: OutputMatcherOptions;
  #scanners = new Map<StreamName, StreamScanner>();
  /** Next position to scan, per watched stream. */
  #next = new Map<StreamName, number>();
  #graceTimers = new Map<StreamName, () => void>();
  #flushes = new Set<StreamName>();
  #pass: Promise<void> | null = null;
  #again = false;
  #closed = false;
  #decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  constructor(source: OutputSource, condition: OutputCondition, options: OutputMatcherOptions) {
    this.#source = source;
    this.#options = options;
    options.regex.warm();
    for (const stream of options.streams) {
      this.#scanners.set(stream, new StreamScanner(condition, options.regex));
      this.#next.set(stream, options.startSeq);
    }
  }

  /** `stream` got output: its held line changes and its quiet time starts again. */
  appended(stream: StreamName): Promise<void> {
    this.#graceTimers.get(stream)?.();
    this.#graceTimers.delete(stream);
    return this.scan();
  }

  /** Scans until nothing unscanned is left; calls during a pass join it; never rejects. */
  scan(): Promise<void> {
    if (this.#pass !== null) {
      this.#again = true;
      return this.#pass;
    }
    this.#pass = this.#run();
    return this.#pass;
  }

  /** Scans everything, held lines included (the output is complete). */
  finish(): Promise<void> {
    for (const stream of this.#scanners.keys()) this.#flushes.add(stream);
    return this.scan();
  }

  close(): void {
    this.#closed = true;
    for (const cancel of this.#graceTimers.values()) cancel();
    this.#graceTimers.clear();
  }

  async #run(): Promise<void> {
    // Start after scan() stored this pass, so a pass that finds nothing still clears it.
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
      } while ((this.#again || this.#flushes.size > 0) && !this.#closed);
      this.#armGraceTimers();
    } catch (error) {
      // A broken source ends the watch with its reason; a pass never rejects.
      const reason = error instanceof Error ? error.message : String(error);
      this.#report("stdout", { kind: "failed", error: `Cannot watch the conditions: ${reason}` });
    } finally {
      // Cleared in the same turn as the last check, so no append can slip between them.
      this.#pass = null;
    }
  }

  /** Reports a match or a failure; true when scanning is over. */
  #report(stream: StreamName, result: ScanResult): boolean {
    if (this.#closed) return true;
    if (result.kind === "none") return false;
    this.close();
    this.#options.onOutcome(
      result.kind === "failed" ? result : { ...result, kind: "output", stream },
    );
    return true;
  }

  #armGraceTimers(): void {
    if (this.#closed) return;
    for (const [stream, scanner] of this.#scanners) {
      if (!scanner.holding || this.#graceTimers.has(stream)) continue;
      const cancel = this.#options.clock.setTimer(() => {
        this.#graceTimers.delete(stream);
        this.#flushes.add(stream);
        this.scan();
      }, TAIL_GRACE_MS);
      this.#graceTimers.set(stream, cancel);
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
}
