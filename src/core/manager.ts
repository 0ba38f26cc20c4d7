import type * as Args from "../contract/arguments.ts";
import { errorText } from "../contract/error_text.ts";
import { failed, type Outcome, succeeded } from "../contract/outcome.ts";
import type * as Results from "../contract/results.ts";
import * as text from "../contract/texts.ts";
import type { BlockOptions } from "./blocking.ts";
import type { CallContext } from "./call_context.ts";
import { checkCursorArgs, clamp, parseStreams } from "./call_checks.ts";
import { EventFeed, VIEW_PAGE } from "./event_feed.ts";
import type { Execution } from "./execution.ts";
import type { ManagerOptions } from "./manager_options.ts";
import { type PageOptions, type PageRequest, readPage } from "./page.ts";
import { ExecutionRegistry } from "./registry.ts";
import { executeResult, markReaped, psResult, readResult, waitResult } from "./responses.ts";
import { cleanupRecords, cleanupThresholds } from "./retention.ts";
import { askPolicy, NextStart, startExecution, type StartOverrides } from "./start.ts";
import { stopExecution } from "./stop_execution.ts";
import { blockUntil, checkUntil } from "./until.ts";
import {
  checkView,
  launchRefusal,
  refused,
  startFailed,
  untilRequest,
  type ViewChoice,
} from "./call_pages.ts";
import { showTerminalPage, withTerminalFields } from "./terminal_result.ts";
import { checkPipeWrite, writeTerminal } from "./terminal_write.ts";
import { GRACEFUL_STOP_MS, REQUEST_CEILING_MS } from "./timing.ts";

/** The registry of executions and every tool operation of the contract. */
export class ExecutionManager {
  #options: ManagerOptions;
  #executions = new ExecutionRegistry({ onRemove: (execution) => this.events.removed(execution) });
  /** Execution events for the pushes of every session. */
  readonly events: EventFeed;
  #nextStart: NextStart;
  #shuttingDown = false;
  #shutdown: Promise<void> | null = null;
  /** Server-wide page settings: the response cap and the server's secrets. */
  #pageOptions: PageOptions;

  constructor(options: ManagerOptions) {
    this.#options = options;
    this.#nextStart = new NextStart(options.processes);
    this.#pageOptions = {
      capBytes: options.limits.maxOutputBytes,
      redaction: options.redactionFor({}),
    };
    this.events = new EventFeed({
      records: (owner) => this.records(owner),
      view: (execution) => readResult(execution, this.#page(execution, VIEW_PAGE), "both"),
    });
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
  async execute(
    args: Args.ExecuteArgs,
    context: CallContext,
  ): Promise<Outcome<Results.ExecuteResult>> {
    const { limits } = this.#options;
    const yieldMs = clamp(args.yield_ms ?? limits.defaultYieldMs, 0, limits.maxYieldMs);
    const until = checkUntil(args.until, this.#options.until.probe, { window: yieldMs > 0 });
    if ("error" in until) return startFailed(until.error);
    const launch = await this.launch(args, context);
    if (launch.kind !== "started") return startFailed(launch.reason);
    const { execution } = launch;
    const budgetMs = Math.min(yieldMs, REQUEST_CEILING_MS);
    const { outcome, hit } = await blockUntil(execution, until.conditions, budgetMs, context, {
      ...this.#blockOptions(),
      cursorSeq: 1,
    });
    if (outcome === "cancelled" || hit?.kind === "failed") this.#interrupt(execution);
    if (hit?.kind === "failed") return startFailed(hit.error);
    this.reap();
    const retained = this.#executions.has(execution.id);
    const { max_output_bytes, truncation } = args;
    const request = untilRequest({ max_output_bytes, truncation }, hit, this.#options);
    const page = this.#page(execution, request);
    const shown = await this.#shown(execution, page, request, null);
    if (!retained) markReaped(page);
    const result = executeResult(execution, page, retained, hit);
    if (result.status === "backgrounded") this.events.backgrounded(execution);
    this.#nextStart.afterAnswer();
    return succeeded(await withTerminalFields(execution, result, shown, this.#options.clock));
  }

  async read(args: Args.ReadArgs, context: CallContext): Promise<Outcome<Results.ReadResult>> {
    const id = args.execution_id;
    const execution = this.lookup(id, context);
    if (execution === null) return refused(id, text.unknownId(id));
    const streams = parseStreams(args.streams);
    if (streams === null) return refused(id, text.invalidStreams(args.streams ?? ""));
    const invalid = checkCursorArgs(args.since_seq, args.tail_lines) ??
      checkView(execution, args.view);
    if (invalid !== null) return refused(id, invalid);
    const request: PageRequest = {
      sinceSeq: args.since_seq ?? null,
      tailLines: args.tail_lines ?? null,
      streams,
      maxOutputBytes: args.max_output_bytes,
      truncation: "head",
    };
    const page = this.#page(execution, request);
    const shown = await this.#shown(execution, page, request, args.view);
    return succeeded(
      await withTerminalFields(
        execution,
        readResult(execution, page, streams),
        shown,
        this.#options.clock,
      ),
    );
  }

  async write(args: Args.WriteArgs, context: CallContext): Promise<Outcome<Results.WriteResult>> {
    const id = args.execution_id;
    const execution = this.lookup(id, context);
    const fail = (error: string) => failed({ execution_id: id, ok: false, error });
    if (execution === null) return fail(text.unknownId(id));
    if (!execution.live) return fail(text.notRunning(execution.status));
    const { stdin } = execution;
    if (stdin.closed) return fail(text.STDIN_CLOSED);
    if (execution.terminal !== null) {
      const error = await writeTerminal(execution, execution.terminal, args, REQUEST_CEILING_MS);
      return error === null ? succeeded({ execution_id: id, ok: true }) : fail(error);
    }
    const pipeError = checkPipeWrite(args);
    if (pipeError !== null) return fail(pipeError);
    if (stdin.busy) return fail(text.STDIN_BUSY);
    const input = args.newline ? `${args.input}\n` : args.input;
    const error = input === "" ? null : await stdin.write(input, REQUEST_CEILING_MS);
    if (args.close_stdin) stdin.close();
    return error === null ? succeeded({ execution_id: id, ok: true }) : fail(error);
  }

  async wait(args: Args.WaitArgs, context: CallContext): Promise<Outcome<Results.WaitResult>> {
    const id = args.execution_id;
    const execution = this.lookup(id, context);
    if (execution === null) return refused(id, text.unknownId(id));
    const invalid = checkCursorArgs(args.since_seq, args.tail_lines) ??
      checkView(execution, args.view);
    if (invalid !== null) return refused(id, invalid);
    const { clock } = this.#options;
    const until = checkUntil(args.until, this.#options.until.probe);
    if ("error" in until) return refused(id, until.error);
    const maxWaitMs = clamp(args.timeout_ms ?? REQUEST_CEILING_MS, 0, REQUEST_CEILING_MS);
    const started = clock.monotonicMs();
    const { outcome, hit } = await blockUntil(execution, until.conditions, maxWaitMs, context, {
      ...this.#blockOptions(),
      cursorSeq: args.since_seq ?? execution.resumeCursor,
    });
    if (hit?.kind === "failed") return refused(id, hit.error);
    const waitedMs = clock.monotonicMs() - started;
    const retained = this.#executions.has(id);
    const request = untilRequest(args, hit, this.#options);
    const page = this.#page(execution, request);
    const shown = await this.#shown(execution, page, request, args.view);
    if (!retained) markReaped(page);
    const result = waitResult(execution, page, { maxWaitMs, waitedMs }, hit);
    if (outcome === "awaiting_input" && execution.live && "wait_result" in result) {
      result.wait_result = "awaiting_input";
    }
    return succeeded(await withTerminalFields(execution, result, shown, this.#options.clock));
  }

  async stop(args: Args.StopArgs, context: CallContext): Promise<Outcome<Results.StopResult>> {
    const execution = this.lookup(args.execution_id, context);
    return await stopExecution(execution, args, this.#options.processes);
  }

  ps(args: Args.PsArgs, context: CallContext): Outcome<Results.PsResult> {
    this.reap();
    return succeeded(psResult(this.records(context.owner), args, this.#nowS()));
  }

  cleanup(args: Args.CleanupArgs, context: CallContext): Outcome<Results.CleanupResult> {
    const thresholds = cleanupThresholds(args);
    if (thresholds === null) return failed({ removed: 0, error: text.CLEANUP_NEGATIVE });
    const records = this.#executions.values();
    const removed = cleanupRecords(records, context.owner, thresholds, this.#nowS());
    for (const execution of removed) this.#executions.remove(execution);
    return succeeded({ removed: removed.length });
  }

  /** Ends every live execution of one session (its client went away). */
  async closeSession(owner: string): Promise<void> {
    await this.#stopAll(this.records(owner));
  }

  /**
   * Stops every live execution (TERM, then KILL) and every descendant that left its
   * group, and refuses new executions; idempotent.
   */
  shutdown(): Promise<void> {
    this.#shuttingDown = true;
    this.#nextStart.cancel();
    this.#shutdown ??= (async () => {
      await this.#stopAll([...this.#executions.values()]);
      for (const execution of this.#executions.values()) execution.dispose();
    })();
    return this.#shutdown;
  }

  /** Admits (else `rejected`) and starts (else `unstarted`: limit, shutdown, OS) one command. */
  async launch(args: Args.ExecuteArgs, context: CallContext, overrides?: StartOverrides) {
    const admission = await askPolicy(args, this.#options);
    if (!admission.allow) return { kind: "rejected", reason: admission.reason } as const;
    this.reap();
    const { maxProcesses } = this.#options.limits;
    const refusal = launchRefusal(args, admission, {
      shuttingDown: this.#shuttingDown,
      live: this.liveCount,
      liveInSession: this.#executions.liveCountOf(context.owner),
    }, { maxProcesses, perSession: this.#options.maxProcessesPerSession ?? maxProcesses });
    if (refusal !== null) return refusal;
    const sandbox = admission.sandbox ?? null;
    const identity = {
      id: this.#executions.newId(),
      owner: context.owner,
      cwd: admission.cwd,
      cwdChecked: admission.cwdChecked ?? false,
      sandbox,
    };
    const execution = startExecution(args, identity, { ...this.#options, ...overrides });
    if (typeof execution === "string") return { kind: "unstarted", reason: execution } as const;
    this.#executions.add(execution);
    this.events.started(execution);
    return { kind: "started", execution } as const;
  }

  /** The record of `id` if the caller's session started it, else null. */
  lookup(id: string, context: CallContext): Execution | null {
    return this.#executions.find(id, context.owner);
  }

  /** The records of one session, oldest first. */
  records(owner: string): Execution[] {
    return [...this.#executions.values()].filter((e) => e.owner === owner);
  }

  /** Drops a finished record that nothing can address (a foreground result was returned). */
  forget(execution: Execution): void {
    if (!execution.live) this.#executions.remove(execution);
  }

  /** Removes the terminal records that retention no longer keeps (age, then count). */
  reap(): void {
    this.#executions.reap(this.#options.limits, this.#nowS());
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

  #blockOptions(): BlockOptions & { ports: ManagerOptions["until"] } {
    const { limits, clock, logger, until } = this.#options;
    return { keepaliveMs: limits.keepaliveIntervalMs, clock, logger, ports: until };
  }

  #shown(execution: Execution, page: Results.PageFields, request: PageRequest, view: ViewChoice) {
    return showTerminalPage(execution, page, {
      page: request,
      view,
      capBytes: this.#pageOptions.capBytes,
    });
  }

  #nowS(): number {
    return this.#options.clock.nowMs() / 1000;
  }
}
