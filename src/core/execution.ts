import type { Platform, SpawnedProcess } from "../platform/types.ts";
import { type Secret, StreamingRedactor } from "../policy/redaction.ts";
import { errorText } from "./error_text.ts";
import { OutputLog, type StreamName } from "./output_log.ts";
import type { ExecutionSpool } from "./spool.ts";
import {
  delay,
  FINAL_DRAIN_MS,
  GROUP_POLL_MS,
  MAX_GROUP_POLL_MS,
  PROCESS_GROUP_EXIT_MS,
  settlesWithin,
} from "./timing.ts";
import { Utf8Normalizer } from "./utf8.ts";

/** Lifecycle states kept on a record; `running` also covers a shell whose group lives on. */
export type ExecutionStatus = "running" | "completed" | "stopped" | "timed_out" | "failed";

/** What an execution is made from. */
export interface ExecutionInit {
  id: string;
  /** Session that started it; other sessions cannot address it. */
  owner: string;
  command: string;
  cwd: string;
  name: string | null;
  token: string;
  process: SpawnedProcess;
  platform: Platform;
  /** Ring-buffer capacity per stream (with a spool: the memory cache of the newest bytes). */
  capacityBytes: number;
  /** Where older output goes (`Spool.forExecution()`); absent or null: `spool: off`. */
  spool?: ExecutionSpool | null;
  /** Values to redact from output; empty disables redaction. */
  secrets: readonly Secret[];
  /** Runtime limit; 0 means none. */
  timeoutMs: number;
  /** Grace between SIGTERM and SIGKILL when the timeout fires. */
  timeoutGraceMs: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One managed shell: its output, stdin, liveness and termination. */
export class Execution {
  readonly id: string;
  readonly owner: string;
  readonly command: string;
  readonly cwd: string;
  readonly name: string | null;
  readonly pid: number;
  readonly log: OutputLog;
  /** Epoch seconds. */
  readonly startedAt: number;
  status: ExecutionStatus = "running";
  exitCode: number | null = null;
  signal: string | null = null;
  /** Epoch seconds once no live work remains. */
  endedAt: number | null = null;
  /** Server-side resume cursor of cursorless reads. */
  resumeCursor = 1;
  lastOutputAt: number | null = null;
  stdinError: string | null = null;

  #token: string;
  #platform: Platform;
  #startMono = performance.now();
  #durationMs: number | null = null;
  #secrets: readonly Secret[];
  #readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  #drains: Promise<void>;
  #ended = false;
  #finished: Promise<void>;
  #stdin: WritableStreamDefaultWriter<Uint8Array> | null;
  #stdinBusy = false;
  #stopRequested = false;
  #timeoutFired = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #wake = new AbortController();

  constructor(init: ExecutionInit) {
    this.id = init.id;
    this.owner = init.owner;
    this.command = init.command;
    this.cwd = init.cwd;
    this.name = init.name;
    this.pid = init.process.pid;
    this.#token = init.token;
    this.#platform = init.platform;
    this.#secrets = init.secrets;
    this.startedAt = Date.now() / 1000;
    this.log = new OutputLog({ capacityBytes: init.capacityBytes, spool: init.spool });
    this.#stdin = init.process.stdin.getWriter();
    this.#drains = Promise.all([
      this.#pump("stdout", init.process.stdout),
      this.#pump("stderr", init.process.stderr),
    ]).then(() => {});
    this.#platform.guard(this.pid, this.#token);
    this.#finished = this.#watch(init.process);
    if (init.timeoutMs > 0) {
      this.#timer = setTimeout(() => this.#onTimeout(init.timeoutGraceMs), init.timeoutMs);
    }
  }

  /** True while the shell, its group or its token holders may still run. */
  get live(): boolean {
    return !this.#ended;
  }

  /** Settles once no live work remains and output is drained. */
  get finished(): Promise<void> {
    return this.#finished;
  }

  /** Spawn-to-end time, or the time so far while live. */
  get durationMs(): number {
    return this.#durationMs ?? performance.now() - this.#startMono;
  }

  get stdinClosed(): boolean {
    return this.#stdin === null;
  }

  get stdinBusy(): boolean {
    return this.#stdinBusy;
  }

  /** Writes the initial input in the background, then closes stdin if asked. */
  startInitialInput(text: string | null, close: boolean): void {
    if (text === null || text === "") {
      if (close) this.closeStdin();
      return;
    }
    this.#stdinBusy = true;
    const writer = this.#stdin;
    if (writer === null) return;
    writer.write(encoder.encode(text)).catch((error: unknown) => {
      this.stdinError = errorText(error);
    }).finally(() => {
      this.#stdinBusy = false;
      if (close) this.closeStdin();
    });
  }

  /** Writes to stdin within `timeoutMs`; the contract's error texts on failure. */
  async write(text: string, timeoutMs: number): Promise<string | null> {
    const writer = this.#stdin;
    if (writer === null) return "Process stdin is closed";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<string>((resolve) => {
      timer = setTimeout(
        () => resolve(`Timed out waiting for process stdin to accept input after ${timeoutMs}ms`),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([
        writer.write(encoder.encode(text)).then(() => null, (error) => errorText(error)),
        timedOut,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Delivers EOF; idempotent. */
  closeStdin(): void {
    const writer = this.#stdin;
    if (writer === null) return;
    this.#stdin = null;
    // A pending backpressured write would make close() wait forever; abort drops it instead.
    writer.abort().catch(() => {});
  }

  /**
   * Sends `signal` to the group and contained descendants, waits up to `graceMs`
   * for everything to end, then escalates to SIGKILL. True once nothing lives.
   */
  async terminate(signal: string, graceMs: number, reason: "stop" | "timeout" | "shutdown") {
    if (reason !== "timeout") this.#stopRequested = true;
    if (!this.live) return true;
    await this.#signalAll(signal);
    if (signal !== "SIGKILL" && await settlesWithin(this.#finished, graceMs)) return true;
    if (!this.live) return true;
    await this.#signalAll("SIGKILL");
    return await settlesWithin(this.#finished, PROCESS_GROUP_EXIT_MS + FINAL_DRAIN_MS);
  }

  /** The containment token carried by every process of this execution. */
  get token(): string {
    return this.#token;
  }

  /** Stops timers and pipes of a record being removed, stops containing its token, deletes its spool. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.closeStdin();
    this.log.close();
    this.#platform.releaseToken(this.#token);
  }

  async #signalAll(signal: string): Promise<void> {
    this.#platform.signalGroup(this.pid, signal);
    const holders = await this.#platform.findTokenHolders([this.#token]);
    this.#platform.signalProcesses(holders.get(this.#token) ?? [], signal);
    // Re-check liveness at once rather than at the next poll.
    this.#wakeWatcher();
  }

  #wakeWatcher(): void {
    const wake = this.#wake;
    this.#wake = new AbortController();
    wake.abort();
  }

  #onTimeout(graceMs: number): void {
    if (!this.live) return;
    this.#timeoutFired = true;
    this.status = "timed_out";
    this.terminate("SIGTERM", graceMs, "timeout").catch(() => {});
  }

  async #pump(stream: StreamName, readable: ReadableStream<Uint8Array>): Promise<void> {
    const reader = readable.getReader();
    this.#readers.push(reader);
    const normalizer = new Utf8Normalizer();
    const redactor = this.#secrets.length > 0 ? new StreamingRedactor(this.#secrets) : null;
    const emit = (bytes: Uint8Array, final: boolean) => {
      if (redactor === null) {
        if (bytes.length > 0) this.log.append(stream, bytes);
        return;
      }
      let text = bytes.length > 0 ? redactor.push(decoder.decode(bytes)) : "";
      if (final) text += redactor.flush();
      if (text.length > 0) this.log.append(stream, encoder.encode(text));
    };
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        this.lastOutputAt = Date.now() / 1000;
        emit(normalizer.push(value), false);
      }
    } catch {
      // A cancelled or broken pipe ends the drain; what was read is kept.
    } finally {
      emit(normalizer.flush(), true);
    }
  }

  async #watch(process: SpawnedProcess): Promise<void> {
    try {
      const exit = await process.exited;
      this.exitCode = exit.exitCode;
      this.signal = exit.signal;
      // Completion is the process group disappearing (the contract's rule). Descendants that
      // left the group with setsid are not waited for; stop, timeout and shutdown still reach
      // them through the containment token.
      // Polls back off (a daemon may outlive its shell for hours) and restart fast after a signal.
      let pollMs = GROUP_POLL_MS;
      while (await this.#platform.isGroupAlive(this.pid)) {
        const wake = this.#wake.signal;
        await delay(pollMs, wake);
        pollMs = wake.aborted ? GROUP_POLL_MS : Math.min(pollMs * 1.5, MAX_GROUP_POLL_MS);
      }
      if (!await settlesWithin(this.#drains, FINAL_DRAIN_MS)) {
        // A descendant outside our reach still holds the pipes: stop waiting on them.
        for (const reader of this.#readers) reader.cancel().catch(() => {});
        await settlesWithin(this.#drains, FINAL_DRAIN_MS);
      }
    } catch {
      if (this.status === "running") this.status = "failed";
    } finally {
      clearTimeout(this.#timer);
      this.closeStdin();
      this.#durationMs = performance.now() - this.#startMono;
      this.endedAt = Date.now() / 1000;
      if (this.status === "running") {
        this.status = this.#timeoutFired
          ? "timed_out"
          : this.#stopRequested
          ? "stopped"
          : "completed";
      }
      this.#ended = true;
      this.#platform.releaseGroup(this.pid);
    }
  }
}
