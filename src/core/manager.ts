import type { Platform } from "../platform/types.ts";
import type { Admission, AdmissionRequest } from "../policy/admission.ts";
import { redactText, type Secret } from "../policy/redaction.ts";
import { normalizeSignalName, pythonRepr } from "../policy/signals.ts";
import * as text from "./contract.ts";
import { errorText } from "./error_text.ts";
import type { Payload } from "./contract.ts";
import { type PageOptions, readPage } from "./page.ts";
import { Execution } from "./execution.ts";
import {
  delay,
  GRACEFUL_STOP_MS,
  MAX_STOP_GRACE_MS,
  REQUEST_CEILING_MS,
  TOKEN_POLL_MS,
} from "./timing.ts";

export type { Payload } from "./contract.ts";

/** What the core needs from the outside world. */
export interface ManagerOptions {
  platform: Platform;
  /** Runs every policy check in order; resolves and checks the cwd. */
  admit(request: AdmissionRequest): Admission;
  /** Settles when `admit` is fully loaded (the bash grammar loads after startup). */
  ready?: Promise<void>;
  /** Secrets to redact for a given `env` overlay (empty when redaction is off). */
  secretsFor(overlay: Record<string, string>): readonly Secret[];
  /** Environment every child starts from (server env, then the non-interactive overlay). */
  baseEnv: Record<string, string>;
  /** Shell used when the call names none. */
  defaultShell: string;
  limits: Limits;
}

/** Numeric policy of the contract's environment variables. */
export interface Limits {
  maxOutputBytes: number;
  maxBufferBytes: number;
  maxProcesses: number;
  defaultYieldMs: number;
  maxYieldMs: number;
  defaultTimeoutMs: number;
  processRetentionMs: number;
  maxRetainedProcesses: number;
  keepaliveIntervalMs: number;
  truncation: "head" | "tail";
}

/** Who is calling and how to reach them while the call blocks. */
export interface CallContext {
  /** Session id; executions are visible only to the session that started them. */
  owner: string;
  /** Aborted when the client cancels the request. */
  signal?: AbortSignal;
  /** Present when the request carried a progress token. */
  onProgress?: (progress: number, message: string) => void;
}

export interface ExecuteArgs {
  command: string;
  side_effects: readonly string[];
  cwd?: string | null;
  env?: Record<string, string> | null;
  shell?: string | null;
  stdin?: string | null;
  close_stdin?: boolean;
  name?: string | null;
  yield_ms?: number | null;
  timeout_ms?: number | null;
  max_output_bytes?: number | null;
  truncation?: "head" | "tail" | null;
}

export interface ReadArgs {
  execution_id: string;
  since_seq?: number | null;
  max_output_bytes?: number | null;
  streams?: string;
  tail_lines?: number | null;
}

export interface WriteArgs {
  execution_id: string;
  input: string;
  newline?: boolean;
  close_stdin?: boolean;
}

export interface WaitArgs {
  execution_id: string;
  timeout_ms?: number;
  max_output_bytes?: number | null;
  since_seq?: number | null;
  tail_lines?: number | null;
  truncation?: "head" | "tail" | null;
}

export interface StopArgs {
  execution_id: string;
  signal?: string;
  force_after_ms?: number;
}

export interface PsArgs {
  include_completed?: boolean;
  limit?: number;
}

export interface CleanupArgs {
  completed_older_than_ms?: number;
  stopped_older_than_ms?: number;
}

const round1 = (ms: number) => Math.round(ms * 10) / 10;

/** The registry of executions and every tool operation of the contract. */
export class ExecutionManager {
  #options: ManagerOptions;
  #executions = new Map<string, Execution>();
  #shuttingDown = false;
  #shutdown: Promise<void> | null = null;

  constructor(options: ManagerOptions) {
    this.#options = options;
  }

  /** Live executions across all sessions. */
  get liveCount(): number {
    let count = 0;
    for (const execution of this.#executions.values()) if (execution.live) count++;
    return count;
  }

  async execute(args: ExecuteArgs, context: CallContext): Promise<Payload> {
    const { limits, platform } = this.#options;
    const failed = (error: string): Payload => ({ status: "failed_to_start", error });
    if (this.#options.ready !== undefined) {
      try {
        await this.#options.ready;
      } catch (error) {
        return failed(`The command policy could not be loaded: ${errorText(error)}`);
      }
    }
    const admission = this.#options.admit({
      command: args.command,
      sideEffects: args.side_effects,
      shell: args.shell ?? null,
      cwd: args.cwd ?? null,
      env: args.env ?? {},
    });
    if (!admission.allow) return failed(admission.reason);
    const overlay = args.env ?? {};
    const badEnv = Object.entries(overlay).find(([key, value]) =>
      key === "" || key.includes("=") || key.includes("\0") || value.includes("\0")
    );
    if (badEnv !== undefined) {
      return failed(
        `Invalid env entry ${
          pythonRepr(badEnv[0])
        }: names must be non-empty without '=' or NUL, values without NUL`,
      );
    }
    if (args.command.includes("\0")) {
      return failed("Command must not contain NUL bytes; remove them or pass data through stdin");
    }
    this.#reap();
    if (this.#shuttingDown) return failed(text.SHUTTING_DOWN);
    if (this.liveCount >= limits.maxProcesses) {
      return failed(text.processLimit(limits.maxProcesses));
    }

    const yieldMs = Math.max(
      0,
      Math.min(args.yield_ms ?? limits.defaultYieldMs, limits.maxYieldMs, REQUEST_CEILING_MS),
    );
    const timeoutMs = Math.max(0, args.timeout_ms ?? limits.defaultTimeoutMs);
    const token = crypto.randomUUID().replaceAll("-", "");
    const shell = args.shell ?? this.#options.defaultShell;
    let process;
    try {
      process = platform.spawn({
        shell,
        command: args.command,
        cwd: admission.cwd,
        env: { ...this.#options.baseEnv, ...overlay },
        token,
      });
    } catch (error) {
      return failed(errorText(error));
    }
    const execution = new Execution({
      id: this.#newId(),
      owner: context.owner,
      command: args.command,
      cwd: admission.cwd,
      name: args.name ?? null,
      token,
      process,
      platform,
      capacityBytes: limits.maxBufferBytes,
      secrets: this.#options.secretsFor(overlay),
      timeoutMs,
      timeoutGraceMs: GRACEFUL_STOP_MS,
    });
    this.#executions.set(execution.id, execution);
    execution.startInitialInput(args.stdin ?? null, args.close_stdin ?? true);

    const outcome = await this.#block(execution, yieldMs, context);
    if (outcome === "cancelled" && execution.live) {
      // A cancelled execute is Ctrl+C: nobody holds its id, so it must not keep running.
      execution.terminate("SIGINT", GRACEFUL_STOP_MS, "stop").catch(() => {});
    }
    this.#reap();
    const retained = this.#executions.has(execution.id);
    const page = readPage(execution, {
      sinceSeq: null,
      tailLines: null,
      streams: "both",
      maxOutputBytes: args.max_output_bytes,
      truncation: args.truncation ?? limits.truncation,
    }, this.#pageOptions());
    if (!retained) markReaped(page);
    const status = execution.live && execution.status === "running"
      ? "backgrounded"
      : execution.status;
    const payload: Payload = { status };
    if (retained) {
      payload.execution_id = execution.id;
      payload.process_id = execution.pid;
    }
    if (status !== "backgrounded") {
      payload.exit_code = execution.exitCode;
      payload.signal = execution.signal;
    }
    payload.duration_ms = round1(execution.durationMs);
    Object.assign(payload, page);
    if (status === "backgrounded") payload.message = text.BACKGROUNDED_MESSAGE;
    if (execution.stdinError !== null) payload.stdin_error = execution.stdinError;
    return payload;
  }

  read(args: ReadArgs, context: CallContext): Payload {
    const id = args.execution_id;
    const execution = this.#find(id, context);
    if (execution === null) return { execution_id: id, error: text.unknownId(id) };
    const streams = args.streams ?? "both";
    if (streams !== "both" && streams !== "stdout" && streams !== "stderr") {
      return {
        execution_id: id,
        error: `Invalid streams: ${pythonRepr(streams)}; pass "both", "stdout" or "stderr"`,
      };
    }
    const invalid = cursorArgsError(args.since_seq, args.tail_lines);
    if (invalid !== null) return { execution_id: id, error: invalid };
    const page = readPage(execution, {
      sinceSeq: args.since_seq ?? null,
      tailLines: args.tail_lines ?? null,
      streams,
      maxOutputBytes: args.max_output_bytes,
      truncation: "head",
    }, this.#pageOptions());
    const payload: Payload = {
      execution_id: id,
      status: execution.status,
      exit_code: execution.exitCode,
      signal: execution.signal,
    };
    const { stdout, stderr, ...cursor } = page;
    Object.assign(payload, cursor);
    if (streams !== "stderr") payload.stdout = stdout;
    if (streams !== "stdout") payload.stderr = stderr;
    if (execution.stdinError !== null) payload.stdin_error = execution.stdinError;
    return payload;
  }

  async write(args: WriteArgs, context: CallContext): Promise<Payload> {
    const id = args.execution_id;
    const execution = this.#find(id, context);
    const fail = (error: string): Payload => ({ execution_id: id, ok: false, error });
    if (execution === null) return fail(text.unknownId(id));
    if (!execution.live) return fail(text.notRunning(execution.status));
    if (execution.stdinClosed) return fail("Process stdin is closed");
    if (execution.stdinBusy) return fail("Initial stdin write is still in progress");
    const input = args.newline ? `${args.input}\n` : args.input;
    const error = input === "" ? null : await execution.write(input, REQUEST_CEILING_MS);
    if (args.close_stdin) execution.closeStdin();
    return error === null ? { execution_id: id, ok: true } : fail(error);
  }

  async wait(args: WaitArgs, context: CallContext): Promise<Payload> {
    const id = args.execution_id;
    const execution = this.#find(id, context);
    if (execution === null) return { execution_id: id, error: text.unknownId(id) };
    const invalid = cursorArgsError(args.since_seq, args.tail_lines);
    if (invalid !== null) return { execution_id: id, error: invalid };
    const maxWaitMs = Math.max(
      0,
      Math.min(args.timeout_ms ?? REQUEST_CEILING_MS, REQUEST_CEILING_MS),
    );
    const started = performance.now();
    await this.#block(execution, maxWaitMs, context);
    const waitedMs = performance.now() - started;
    const retained = this.#executions.has(id);
    const page = readPage(execution, {
      sinceSeq: args.since_seq ?? null,
      tailLines: args.tail_lines ?? null,
      streams: "both",
      maxOutputBytes: args.max_output_bytes,
      truncation: args.truncation ?? this.#options.limits.truncation,
    }, this.#pageOptions());
    if (!retained) markReaped(page);
    const payload: Payload = {
      execution_id: id,
      status: execution.status,
      exit_code: execution.exitCode,
      signal: execution.signal,
      wait_result: execution.live ? "deadline_reached" : "exited",
      waited_ms: round1(waitedMs),
      max_wait_ms: maxWaitMs,
      ...page,
    };
    if (execution.stdinError !== null) payload.stdin_error = execution.stdinError;
    return payload;
  }

  async stop(args: StopArgs, context: CallContext): Promise<Payload> {
    const id = args.execution_id;
    const raw = args.signal ?? "SIGTERM";
    const execution = this.#find(id, context);
    const fail = (error: string): Payload => ({ execution_id: id, stopped: false, error });
    if (execution === null) return fail(text.unknownId(id));
    if (!execution.live) return fail(text.notRunning(execution.status));
    const signal = normalizeSignalName(raw);
    if (signal === null || !this.#options.platform.isSignalSupported(signal)) {
      return fail(
        `Invalid signal: ${pythonRepr(raw)}; pass a signal name such as SIGTERM, SIGINT or SIGKILL`,
      );
    }
    const graceMs = Math.max(
      0,
      Math.min(args.force_after_ms ?? GRACEFUL_STOP_MS, MAX_STOP_GRACE_MS),
    );
    const stopped = await execution.terminate(signal, graceMs, "stop");
    if (!stopped) return { execution_id: id, stopped: false, signal, error: text.STOP_FAILED };
    return { execution_id: id, stopped: true, signal, error: null };
  }

  ps(args: PsArgs, context: CallContext): Payload {
    this.#reap();
    const includeCompleted = args.include_completed ?? true;
    const limit = Math.max(0, args.limit ?? 50);
    const now = Date.now() / 1000;
    const executions: Payload[] = [];
    const secrets = this.#options.secretsFor({});
    const records = [...this.#executions.values()].reverse();
    for (const execution of records) {
      if (executions.length >= limit) break;
      if (execution.owner !== context.owner) continue;
      if (!includeCompleted && execution.status !== "running") continue;
      executions.push({
        execution_id: execution.id,
        process_id: execution.pid,
        name: execution.name === null ? null : redactText(execution.name, secrets),
        command: redactText(execution.command, secrets),
        cwd: execution.cwd,
        status: execution.status,
        exit_code: execution.exitCode,
        signal: execution.signal,
        started_at: execution.startedAt,
        ended_at: execution.live ? null : execution.endedAt,
        duration_ms: round1(execution.durationMs),
        stdout_bytes: execution.log.bytesCaptured("stdout"),
        stderr_bytes: execution.log.bytesCaptured("stderr"),
        last_output_at: execution.lastOutputAt,
        idle_ms: execution.lastOutputAt === null
          ? null
          : round1(Math.max(0, (now - execution.lastOutputAt) * 1000)),
        latest_seq: execution.log.latestSeq,
        stdin_error: execution.stdinError,
      });
    }
    return { executions };
  }

  cleanup(args: CleanupArgs, context: CallContext): Payload {
    const completedMs = args.completed_older_than_ms ?? 3_600_000;
    const stoppedMs = args.stopped_older_than_ms ?? 3_600_000;
    if (completedMs < 0 || stoppedMs < 0) return { removed: 0, error: text.CLEANUP_NEGATIVE };
    const now = Date.now() / 1000;
    let removed = 0;
    for (const execution of [...this.#executions.values()]) {
      if (execution.owner !== context.owner || execution.live) continue;
      const ageMs = (now - (execution.endedAt ?? execution.startedAt)) * 1000;
      const threshold = execution.status === "completed" ? completedMs : stoppedMs;
      if (ageMs > threshold) {
        this.#remove(execution);
        removed++;
      }
    }
    return { removed };
  }

  /** Ends every live execution of one session (its client went away). */
  async closeSession(owner: string): Promise<void> {
    await this.#stopAll([...this.#executions.values()].filter((e) => e.owner === owner));
  }

  /**
   * Stops every live execution (TERM, then KILL) and every descendant that left its
   * group, and refuses new executions; idempotent.
   */
  shutdown(): Promise<void> {
    this.#shuttingDown = true;
    this.#shutdown ??= (async () => {
      await this.#stopAll([...this.#executions.values()]);
      for (const execution of this.#executions.values()) execution.dispose();
    })();
    return this.#shutdown;
  }

  async #stopAll(records: Execution[]): Promise<void> {
    const live = records.filter((e) => e.live);
    await Promise.all(live.map((e) => e.terminate("SIGTERM", GRACEFUL_STOP_MS, "shutdown")));
    // Finished records may have left daemons behind (setsid); their tokens still find them.
    const { platform } = this.#options;
    const tokens = records.map((e) => e.token);
    const strays = async () => [...(await platform.findTokenHolders(tokens)).values()].flat();
    let pids = await strays();
    if (pids.length === 0) return;
    platform.signalProcesses(pids, "SIGTERM");
    const deadline = performance.now() + GRACEFUL_STOP_MS;
    while (pids.length > 0 && performance.now() < deadline) {
      await delay(TOKEN_POLL_MS);
      pids = await strays();
    }
    platform.signalProcesses(pids, "SIGKILL");
  }

  async #block(
    execution: Execution,
    budgetMs: number,
    context: CallContext,
  ): Promise<"finished" | "deadline" | "cancelled"> {
    if (!execution.live) return "finished";
    const { onProgress, signal } = context;
    const stopProgress = new AbortController();
    if (onProgress !== undefined) this.#reportProgress(execution, onProgress, stopProgress.signal);
    const cancelled = new Promise<"cancelled">((resolve) => {
      if (signal?.aborted) resolve("cancelled");
      signal?.addEventListener("abort", () => resolve("cancelled"), { once: true });
    });
    const deadline = delay(budgetMs, stopProgress.signal).then(() => "deadline" as const);
    try {
      return await Promise.race([
        execution.finished.then(() => "finished" as const),
        deadline,
        cancelled,
      ]);
    } finally {
      stopProgress.abort();
    }
  }

  async #reportProgress(
    execution: Execution,
    onProgress: (progress: number, message: string) => void,
    stop: AbortSignal,
  ): Promise<void> {
    const { keepaliveIntervalMs } = this.#options.limits;
    const started = performance.now();
    while (true) {
      await delay(keepaliveIntervalMs, stop);
      if (stop.aborted) return;
      const bytes = execution.log.latestSeq - 1;
      const start = execution.log.tailStart({ lines: 1, maxBytes: 200 });
      const newest = execution.log.read({ startSeq: start, maxBytes: 200 });
      const line = (newest.stdout + newest.stderr).trim().split("\n").at(-1) ?? "";
      const elapsed = Math.round(performance.now() - started);
      try {
        onProgress(
          elapsed,
          `${bytes} bytes of output so far${line === "" ? "" : `; last line: ${line}`}`,
        );
      } catch {
        return;
      }
    }
  }

  #pageOptions(): PageOptions {
    return { capBytes: this.#options.limits.maxOutputBytes, secrets: this.#options.secretsFor({}) };
  }

  #find(id: string, context: CallContext): Execution | null {
    const execution = this.#executions.get(id);
    return execution === undefined || execution.owner !== context.owner ? null : execution;
  }

  #newId(): string {
    while (true) {
      const id = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
      if (!this.#executions.has(id)) return id;
    }
  }

  #remove(execution: Execution): void {
    execution.dispose();
    this.#executions.delete(execution.id);
  }

  /** Age, then count, retention of terminal records (running ones are never reaped). */
  #reap(): void {
    const { processRetentionMs, maxRetainedProcesses } = this.#options.limits;
    const now = Date.now() / 1000;
    const terminal: Execution[] = [];
    for (const execution of this.#executions.values()) {
      if (execution.live) continue;
      const ageMs = (now - (execution.endedAt ?? execution.startedAt)) * 1000;
      if (ageMs > processRetentionMs || processRetentionMs === 0) this.#remove(execution);
      else terminal.push(execution);
    }
    const excess = terminal.length - maxRetainedProcesses;
    if (excess <= 0) return;
    terminal.sort((a, b) =>
      (a.endedAt ?? a.startedAt) - (b.endedAt ?? b.startedAt) || a.startedAt - b.startedAt ||
      (a.id < b.id ? -1 : 1)
    );
    for (const execution of terminal.slice(0, excess)) this.#remove(execution);
  }
}

function cursorArgsError(
  sinceSeq: number | null | undefined,
  tailLines: number | null | undefined,
): string | null {
  const hasTail = tailLines !== null && tailLines !== undefined;
  if (hasTail && sinceSeq !== null && sinceSeq !== undefined) return text.TAIL_EXCLUSIVE;
  if (hasTail && tailLines <= 0) return text.tailNotPositive(tailLines);
  return null;
}

function markReaped(page: Payload): void {
  if (page.capped) {
    page.capped = false;
    page.evicted = true;
    page.hint = text.REAPED_HINT;
  }
}
