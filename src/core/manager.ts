import type { Admission } from "../contract/admission.ts";
import type {
  CleanupArgs,
  ExecuteArgs,
  PsArgs,
  ReadArgs,
  StopArgs,
  WaitArgs,
  WriteArgs,
} from "../contract/arguments.ts";
import { errorText } from "../contract/error_text.ts";
import { failed, type Outcome, succeeded } from "../contract/outcome.ts";
import type {
  CleanupResult,
  ExecuteResult,
  PsResult,
  ReadResult,
  RefusedCall,
  StopResult,
  WaitResult,
  WriteResult,
} from "../contract/results.ts";
import { normalizeSignalName } from "../contract/signal_names.ts";
import * as text from "../contract/texts.ts";
import { blockOn, type BlockOptions } from "./blocking.ts";
import type { CallContext } from "./call_context.ts";
import { checkCursorArgs, clamp, parseStreams } from "./call_checks.ts";
import type { Execution } from "./execution.ts";
import type { ManagerOptions } from "./manager_options.ts";
import { type PageOptions, type PageRequest, readPage } from "./page.ts";
import { ExecutionRegistry } from "./registry.ts";
import { executeResult, markReaped, psEntry, readResult, waitResult } from "./responses.ts";
import { cleanupRecords } from "./retention.ts";
import { askPolicy, startExecution } from "./start.ts";
import { GRACEFUL_STOP_MS, MAX_STOP_GRACE_MS, REQUEST_CEILING_MS } from "./timing.ts";

/** Default age thresholds of `cleanup`: one hour. */
const CLEANUP_DEFAULT_MS = 3_600_000;

/** The registry of executions and every tool operation of the contract. */
export class ExecutionManager {
  #options: ManagerOptions;
  #executions = new ExecutionRegistry();
  #shuttingDown = false;
  #shutdown: Promise<void> | null = null;
  /** Server-wide page settings: the response cap and the server's secrets. */
  #pageOptions: PageOptions;

  constructor(options: ManagerOptions) {
    this.#options = options;
    this.#pageOptions = {
      capBytes: options.limits.maxOutputBytes,
      redaction: options.redactionFor({}),
    };
  }

  /** Live executions across all sessions. */
  get liveCount(): number {
    return this.#executions.liveCount;
  }

  /** Whether a session still has an execution with live work. */
  hasLiveWork(owner: string): boolean {
    return this.#executions.hasLiveWork(owner);
  }

  /** Admits, starts, then blocks on one command for its yield window. */
  async execute(args: ExecuteArgs, context: CallContext): Promise<Outcome<ExecuteResult>> {
    const admission = await this.#admit(args, context.owner);
    if (!admission.allow) return startFailed(admission.reason);
    const identity = {
      id: this.#executions.newId(),
      owner: context.owner,
      cwd: admission.cwd,
      cwdChecked: admission.cwdChecked ?? false,
      sandbox: admission.sandbox ?? null,
    };
    const execution = startExecution(args, identity, this.#options);
    if (typeof execution === "string") return startFailed(execution);
    this.#executions.add(execution);
    const { limits } = this.#options;
    const yieldMs = clamp(args.yield_ms ?? limits.defaultYieldMs, 0, limits.maxYieldMs);
    const outcome = await blockOn(
      execution,
      Math.min(yieldMs, REQUEST_CEILING_MS),
      context,
      this.#blockOptions(),
    );
    if (outcome === "cancelled") this.#interrupt(execution);
    this.#reap();
    const retained = this.#executions.has(execution.id);
    const page = this.#page(execution, {
      sinceSeq: null,
      tailLines: null,
      streams: "both",
      maxOutputBytes: args.max_output_bytes,
      truncation: args.truncation ?? limits.truncation,
    });
    if (!retained) markReaped(page);
    return succeeded(executeResult(execution, page, retained));
  }

  read(args: ReadArgs, context: CallContext): Outcome<ReadResult> {
    const id = args.execution_id;
    const execution = this.#find(id, context);
    if (execution === null) return refused(id, text.unknownId(id));
    const streams = parseStreams(args.streams);
    if (streams === null) return refused(id, text.invalidStreams(args.streams ?? ""));
    const invalid = checkCursorArgs(args.since_seq, args.tail_lines);
    if (invalid !== null) return refused(id, invalid);
    const page = this.#page(execution, {
      sinceSeq: args.since_seq ?? null,
      tailLines: args.tail_lines ?? null,
      streams,
      maxOutputBytes: args.max_output_bytes,
      truncation: "head",
    });
    return succeeded(readResult(execution, page, streams));
  }

  async write(args: WriteArgs, context: CallContext): Promise<Outcome<WriteResult>> {
    const id = args.execution_id;
    const execution = this.#find(id, context);
    const fail = (error: string) => failed({ execution_id: id, ok: false, error });
    if (execution === null) return fail(text.unknownId(id));
    if (!execution.live) return fail(text.notRunning(execution.status));
    const { stdin } = execution;
    if (stdin.closed) return fail(text.STDIN_CLOSED);
    if (stdin.busy) return fail(text.STDIN_BUSY);
    const input = args.newline ? `${args.input}\n` : args.input;
    const error = input === "" ? null : await stdin.write(input, REQUEST_CEILING_MS);
    if (args.close_stdin) stdin.close();
    return error === null ? succeeded({ execution_id: id, ok: true }) : fail(error);
  }

  async wait(args: WaitArgs, context: CallContext): Promise<Outcome<WaitResult>> {
    const id = args.execution_id;
    const execution = this.#find(id, context);
    if (execution === null) return refused(id, text.unknownId(id));
    const invalid = checkCursorArgs(args.since_seq, args.tail_lines);
    if (invalid !== null) return refused(id, invalid);
    const { clock, limits } = this.#options;
    const maxWaitMs = clamp(args.timeout_ms ?? REQUEST_CEILING_MS, 0, REQUEST_CEILING_MS);
    const started = clock.monotonicMs();
    await blockOn(execution, maxWaitMs, context, this.#blockOptions());
    const waitedMs = clock.monotonicMs() - started;
    const retained = this.#executions.has(id);
    const page = this.#page(execution, {
      sinceSeq: args.since_seq ?? null,
      tailLines: args.tail_lines ?? null,
      streams: "both",
      maxOutputBytes: args.max_output_bytes,
      truncation: args.truncation ?? limits.truncation,
    });
    if (!retained) markReaped(page);
    return succeeded(waitResult(execution, page, { maxWaitMs, waitedMs }));
  }

  async stop(args: StopArgs, context: CallContext): Promise<Outcome<StopResult>> {
    const id = args.execution_id;
    const raw = args.signal ?? "SIGTERM";
    const execution = this.#find(id, context);
    if (execution === null) {
      return failed({ execution_id: id, stopped: false, error: text.unknownId(id) });
    }
    if (!execution.live) {
      // Not a failure: nothing of it runs, which is what a stop is for; say how it ended.
      const { status } = execution;
      return succeeded({
        execution_id: id,
        stopped: false,
        status,
        error: text.notRunning(status),
      });
    }
    const signal = normalizeSignalName(raw);
    if (signal === null || !this.#options.processes.supportsSignal(signal)) {
      return failed({ execution_id: id, stopped: false, error: text.invalidSignal(raw) });
    }
    const graceMs = clamp(args.force_after_ms ?? GRACEFUL_STOP_MS, 0, MAX_STOP_GRACE_MS);
    if (await execution.terminate(signal, graceMs, "stop")) {
      return succeeded({ execution_id: id, stopped: true, signal, error: null });
    }
    return failed({ execution_id: id, stopped: false, signal, error: text.STOP_FAILED });
  }

  ps(args: PsArgs, context: CallContext): Outcome<PsResult> {
    this.#reap();
    const includeCompleted = args.include_completed ?? true;
    const limit = Math.max(0, args.limit ?? 50);
    const nowS = this.#nowS();
    const records = [...this.#executions.values()].reverse().filter((execution) =>
      execution.owner === context.owner && (includeCompleted || execution.status === "running")
    );
    return succeeded({
      executions: records.slice(0, limit).map((execution) => psEntry(execution, nowS)),
    });
  }

  cleanup(args: CleanupArgs, context: CallContext): Outcome<CleanupResult> {
    const completedMs = args.completed_older_than_ms ?? CLEANUP_DEFAULT_MS;
    const stoppedMs = args.stopped_older_than_ms ?? CLEANUP_DEFAULT_MS;
    if (completedMs < 0 || stoppedMs < 0) {
      return failed({ removed: 0, error: text.CLEANUP_NEGATIVE });
    }
    const removed = cleanupRecords(this.#executions.values(), context.owner, {
      completedMs,
      stoppedMs,
    }, this.#nowS());
    for (const execution of removed) this.#executions.remove(execution);
    return succeeded({ removed: removed.length });
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

  /** The policy's answer, then whether the server, and the session, can take one more. */
  async #admit(args: ExecuteArgs, owner: string): Promise<Admission> {
    const admission = await askPolicy(args, this.#options);
    if (!admission.allow) return admission;
    this.#reap();
    const { maxProcesses } = this.#options.limits;
    const perSession = this.#options.maxProcessesPerSession ?? maxProcesses;
    if (this.#shuttingDown) return { allow: false, reason: text.SHUTTING_DOWN };
    if (this.liveCount >= maxProcesses) {
      return { allow: false, reason: text.processLimit(maxProcesses) };
    }
    if (this.#executions.liveCountOf(owner) >= perSession) {
      return { allow: false, reason: text.sessionProcessLimit(perSession) };
    }
    return admission;
  }

  /** A cancelled execute is Ctrl+C: nobody holds its id, so it must not keep running. */
  #interrupt(execution: Execution): void {
    if (!execution.live) return;
    execution.terminate("SIGINT", GRACEFUL_STOP_MS, "stop").catch((error) =>
      this.#options.logger.warn(
        `Cannot stop cancelled execution ${execution.id}: ${errorText(error)}`,
      )
    );
  }

  async #stopAll(records: Execution[]): Promise<void> {
    const live = records.filter((e) => e.live);
    await Promise.all(live.map((e) => e.terminate("SIGTERM", GRACEFUL_STOP_MS, "shutdown")));
    // Finished records may have left daemons behind (setsid); the platform still finds them.
    await this.#options.processes.sweep(records.map((e) => e.tree), GRACEFUL_STOP_MS);
  }

  #page(execution: Execution, request: PageRequest) {
    return readPage(execution, request, this.#pageOptions);
  }

  #blockOptions(): BlockOptions {
    const { limits, clock, logger } = this.#options;
    return { keepaliveMs: limits.keepaliveIntervalMs, clock, logger };
  }

  #nowS(): number {
    return this.#options.clock.nowMs() / 1000;
  }

  #find(id: string, context: CallContext): Execution | null {
    return this.#executions.find(id, context.owner);
  }

  #reap(): void {
    this.#executions.reap(this.#options.limits, this.#nowS());
  }
}

function startFailed(error: string): Outcome<ExecuteResult> {
  return failed({ status: "failed_to_start", error });
}

function refused(id: string, error: string): Outcome<RefusedCall> {
  return failed({ execution_id: id, error });
}
