import type { SandboxGrant } from "../contract/admission.ts";
import { errorText } from "../contract/error_text.ts";
import type { ExecutionStatus } from "../contract/results.ts";
import { ChunkReader } from "./chunk_reader.ts";
import type { Clock } from "./clock.ts";
import type { SourceChunk } from "./condition_ports.ts";
import { EventHub } from "./event_hub.ts";
import type { Logger } from "./logger.ts";
import { OutputLog, type StreamName } from "./output_log.ts";
import { pumpOutput } from "./output_pump.ts";
import type { ProcessTree } from "./process.ts";
import type { Redaction } from "./redaction.ts";
import type { ExecutionSpool } from "./spool.ts";
import { StdinChannel } from "./stdin_channel.ts";
import type { TerminalSession } from "./terminal_session.ts";
import { startTimer } from "./timer.ts";
import { FINAL_DRAIN_MS, PROCESS_GROUP_EXIT_MS, settlesWithin } from "./timing.ts";

export type { ExecutionStatus } from "../contract/results.ts";

/** What an execution is made from. */
export interface ExecutionInit {
  id: string;
  /** Session that started it; other sessions cannot address it. */
  owner: string;
  command: string;
  cwd: string;
  name: string | null;
  tree: ProcessTree;
  /** `clock.monotonicMs()` just before the spawn: durations run from there. */
  spawnedMonoMs: number;
  /** `clock.nowMs()` just before the spawn: `started_at`. */
  spawnedAtMs: number;
  clock: Clock;
  logger: Logger;
  /** Ring-buffer capacity per stream (with a spool: the memory cache of the newest bytes). */
  capacityBytes: number;
  /** Where older output goes (`Spool.forExecution()`); absent or null: `spool: off`. */
  spool?: ExecutionSpool | null;
  /** Secrets of the server's environment and the call's overlay. */
  redaction: Redaction;
  /** Runtime limit; 0 means none. */
  timeoutMs: number;
  /** Grace between SIGTERM and SIGKILL when the timeout fires; 0 sends SIGKILL at once. */
  timeoutGraceMs: number;
  /** The sandbox it runs in; null or absent when the sandbox is off. */
  sandbox?: SandboxGrant | null;
  /** The terminal of a `tty: true` execution (its tree is the terminal's). */
  terminal?: TerminalSession | null;
}

/** Why a termination was asked for: a timeout keeps `timed_out`, the others end `stopped`. */
export type TerminationReason = "stop" | "timeout" | "shutdown";

/** One managed shell: its output, stdin, liveness and termination. */
export class Execution {
  readonly id: string;
  readonly owner: string;
  readonly command: string;
  readonly cwd: string;
  readonly name: string | null;
  readonly pid: number;
  readonly log: OutputLog;
  readonly tree: ProcessTree;
  readonly redaction: Redaction;
  readonly stdin: StdinChannel;
  /** The sandbox it runs in; null when the sandbox is off. */
  readonly sandbox: SandboxGrant | null;
  /** Each append to the log, as it happens (conditions and pushes listen). */
  readonly appended = new EventHub<SourceChunk>();
  /** The terminal of a `tty: true` execution, else null. */
  readonly terminal: TerminalSession | null;
  /** Epoch seconds. */
  readonly startedAt: number;
  #status: ExecutionStatus = "running";
  #exitCode: number | null = null;
  #signal: string | null = null;
  #endedAt: number | null = null;
  #lastOutputAt: number | null = null;
  #resumeCursor = 1;
  #clock: Clock;
  #logger: Logger;
  #startMono: number;
  #durationMs: number | null = null;
  #readers: ChunkReader[] = [];
  #drains: Promise<void>;
  #drained = false;
  #ended = false;
  #finished: Promise<void>;
  #stopRequested = false;
  #timeoutFired = false;
  #cancelTimeout: () => void = () => {};

  constructor(init: ExecutionInit) {
    this.id = init.id;
    this.owner = init.owner;
    this.command = init.command;
    this.cwd = init.cwd;
    this.name = init.name;
    this.tree = init.tree;
    this.pid = init.tree.pid;
    this.redaction = init.redaction;
    this.sandbox = init.sandbox ?? null;
    this.terminal = init.terminal ?? null;
    this.#clock = init.clock;
    this.#logger = init.logger;
    this.#startMono = init.spawnedMonoMs;
    this.startedAt = init.spawnedAtMs / 1000;
    this.log = new OutputLog({ capacityBytes: init.capacityBytes, spool: init.spool });
    this.stdin = new StdinChannel(init.tree.stdin, init.logger);
    this.#drains = Promise.all([
      this.#pump("stdout", init.tree.stdout),
      this.#pump("stderr", init.tree.stderr),
    ]).then(() => {
      this.#drained = true;
    });
    this.#finished = this.#watch();
    if (init.timeoutMs > 0) {
      this.#cancelTimeout = startTimer(init.timeoutMs, () => this.#onTimeout(init.timeoutGraceMs));
    }
  }

  get status(): ExecutionStatus {
    return this.#status;
  }

  get exitCode(): number | null {
    return this.#exitCode;
  }

  get signal(): string | null {
    return this.#signal;
  }

  /** Epoch seconds once no live work remains. */
  get endedAt(): number | null {
    return this.#endedAt;
  }

  /** Epoch seconds of the newest output chunk, or null before any. */
  get lastOutputAt(): number | null {
    return this.#lastOutputAt;
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
    return this.#durationMs ?? this.#clock.monotonicMs() - this.#startMono;
  }

  /** The server-side cursor of cursorless reads: where the next one starts. */
  get resumeCursor(): number {
    return this.#resumeCursor;
  }

  /** Moves the resume cursor to `seq`; it never moves backwards. */
  advanceResumeCursor(seq: number): void {
    this.#resumeCursor = Math.max(this.#resumeCursor, seq);
  }

  /**
   * Sends `signal` to the tree, waits up to `graceMs` for everything to end, then escalates
   * to SIGKILL. True once nothing lives.
   */
  async terminate(signal: string, graceMs: number, reason: TerminationReason): Promise<boolean> {
    if (reason !== "timeout") this.#stopRequested = true;
    if (!this.live) return true;
    await this.tree.signal(signal);
    if (signal !== "SIGKILL" && await settlesWithin(this.#finished, graceMs)) return true;
    if (!this.live) return true;
    await this.tree.signal("SIGKILL");
    return await settlesWithin(this.#finished, PROCESS_GROUP_EXIT_MS + FINAL_DRAIN_MS);
  }

  /** Stops timers and pipes of a record being removed, stops containing its tree, deletes its spool. */
  dispose(): void {
    this.#cancelTimeout();
    this.stdin.close();
    this.log.close();
    this.tree.release();
    this.terminal?.[Symbol.dispose]();
  }

  #onTimeout(graceMs: number): void {
    if (!this.live) return;
    this.#timeoutFired = true;
    this.#status = "timed_out";
    // No grace is a kill, as tab-shell-mcp's timeout is.
    this.terminate(graceMs === 0 ? "SIGKILL" : "SIGTERM", graceMs, "timeout").catch((error) =>
      this.#logger.warn(`Cannot stop timed-out execution ${this.id}: ${errorText(error)}`)
    );
  }

  #pump(stream: StreamName, readable: ReadableStream<Uint8Array>): Promise<void> {
    const reader = new ChunkReader(readable);
    this.#readers.push(reader);
    return pumpOutput(stream, reader, {
      log: this.log,
      redactor: this.redaction.stream(),
      onChunk: () => this.#lastOutputAt = this.#clock.nowMs() / 1000,
      onAppend: (stream, seq, bytes) => this.appended.emit({ stream, seq, bytes }),
    });
  }

  async #watch(): Promise<void> {
    try {
      const exit = await this.tree.exited;
      this.#exitCode = exit.exitCode;
      this.#signal = exit.signal;
      // Completion is the tree ending (the contract's rule: the process group is gone).
      // Descendants that left it with setsid are not waited for; stop, timeout and shutdown
      // still reach them through the tree.
      await this.tree.ended;
      await this.#drain();
    } catch {
      if (this.#status === "running") this.#status = "failed";
    } finally {
      this.#end();
    }
  }

  async #drain(): Promise<void> {
    // Most pipes reach their end before the group is gone: no deadline timer for those.
    if (this.#drained || await settlesWithin(this.#drains, FINAL_DRAIN_MS)) return;
    // A descendant outside our reach still holds the pipes: stop waiting on them.
    for (const reader of this.#readers) {
      reader.cancel().catch((error) =>
        this.#logger.warn(`Cannot stop reading execution ${this.id}: ${errorText(error)}`)
      );
    }
    await settlesWithin(this.#drains, FINAL_DRAIN_MS);
  }

  #end(): void {
    this.#cancelTimeout();
    this.stdin.close();
    this.#durationMs = this.#clock.monotonicMs() - this.#startMono;
    this.#endedAt = this.#clock.nowMs() / 1000;
    if (this.#status === "running") {
      this.#status = this.#timeoutFired
        ? "timed_out"
        : this.#stopRequested
        ? "stopped"
        : "completed";
    }
    this.#ended = true;
  }
}
