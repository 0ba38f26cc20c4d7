import type { Truncation } from "../../contract/arguments.ts";
import { failed, type Outcome, succeeded } from "../../contract/outcome.ts";
import {
  BACKGROUND_STARTED,
  failedToStart,
  NOT_STOPPED,
  type ShellCommandResult,
  stillRunning,
  type StopTaskResult,
  type TabShellExecuteArgs,
  type TaskDetails,
  type TaskIdArgs,
  type TaskList,
  type TaskNotFound,
  taskNotFound,
} from "../../contract/tab_shell.ts";
import { STOP_FAILED } from "../../contract/texts.ts";
import { blockOn } from "../blocking.ts";
import type { CallContext } from "../call_context.ts";
import type { Clock } from "../clock.ts";
import type { Execution } from "../execution.ts";
import type { Logger } from "../logger.ts";
import type { ExecutionManager } from "../manager.ts";
import { FINAL_DRAIN_MS, PROCESS_GROUP_EXIT_MS } from "../timing.ts";
import { commandResult, type ResultCut, taskDetails, taskSummary } from "./task_views.ts";

/**
 * The category a tab-shell call declares, since its tools take no `side_effects`: the side-effect
 * blocklist refuses these calls only when it lists UNKNOWN.
 */
export const UNDECLARED_SIDE_EFFECTS: readonly string[] = ["UNKNOWN"];

/** The `tab-shell` profile's settings, already in our units. */
export interface TabShellOptions {
  /** Timeout of a foreground command whose call passes none; 0 means none. */
  foregroundTimeoutMs: number;
  /** Timeout of a background task whose call passes none; 0 means none. */
  backgroundTimeoutMs: number;
  /** Most characters of stdout plus stderr in one result. */
  maxOutputLength: number;
  /** Which end of oversized output a result keeps when the call names none. */
  truncation: Truncation;
  /** Shell for calls that pass an empty one: the configured shell, else $SHELL, else /bin/sh. */
  defaultShell: string;
  /** Interval of progress notifications while a foreground command runs. */
  keepaliveMs: number;
  /** How long finished tasks stay (`process_retention_ms`), for the tool descriptions. */
  retentionMs: number;
  clock: Clock;
  logger: Logger;
}

/**
 * tab-shell-mcp's four tools over the execution manager: the same policy, processes, output
 * and retention as `execute`, with tab-shell's blocking, kill and result shapes. A task id is an
 * execution id, so `read`, `wait` and `ps` work on tasks and these tools on executions.
 */
export class TabShellTasks {
  #manager: ExecutionManager;
  #options: TabShellOptions;
  /** The direction each task's result is cut in, chosen when it started. */
  #truncation = new WeakMap<Execution, Truncation>();

  constructor(manager: ExecutionManager, options: TabShellOptions) {
    this.#manager = manager;
    this.#options = options;
  }

  /** The profile's settings, which the tool descriptions quote. */
  get settings(): Readonly<TabShellOptions> {
    return this.#options;
  }

  /** Runs a command to its end (or its timeout, then a kill), or starts it in the background. */
  async execute(
    args: TabShellExecuteArgs,
    context: CallContext,
  ): Promise<Outcome<ShellCommandResult>> {
    const { foregroundTimeoutMs, backgroundTimeoutMs, defaultShell } = this.#options;
    const background = args.background ?? false;
    const timeoutMs = args.timeout === null || args.timeout === undefined
      ? (background ? backgroundTimeoutMs : foregroundTimeoutMs)
      : Math.min(Math.max(1, Math.round(args.timeout * 1000)), Number.MAX_SAFE_INTEGER);
    const launch = await this.#manager.launch(
      {
        command: args.command,
        side_effects: UNDECLARED_SIDE_EFFECTS,
        cwd: args.cwd ?? null,
        shell: args.shell ? args.shell : null,
        timeout_ms: timeoutMs,
      },
      context,
      { defaultShell, timeoutGraceMs: 0 },
    );
    if (launch.kind === "rejected") return failed({ status: "rejected", reason: launch.reason });
    if (launch.kind === "unstarted") return failed(unstarted(args.command, launch.reason));
    const { execution } = launch;
    this.#truncation.set(execution, args.output_truncation_mode ?? this.#options.truncation);
    if (background) {
      return succeeded({ task_id: execution.id, status: "running", message: BACKGROUND_STARTED });
    }
    await this.#runForeground(execution, timeoutMs, context);
    const result = commandResult(execution, this.#cut(execution));
    // Nothing can address a foreground record, so it must not crowd tasks out of retention.
    this.#manager.forget(execution);
    return succeeded(result);
  }

  /** A task's status, and its result once it has ended. */
  status(args: TaskIdArgs, context: CallContext): Outcome<TaskDetails | TaskNotFound> {
    this.#manager.reap();
    const execution = this.#manager.lookup(args.task_id, context);
    if (execution === null) return failed({ error: taskNotFound(args.task_id) });
    return succeeded(taskDetails(execution, this.#cut(execution)));
  }

  /** Kills a running task's whole process group and waits until it is gone. */
  async stop(args: TaskIdArgs, context: CallContext): Promise<Outcome<StopTaskResult>> {
    this.#manager.reap();
    const execution = this.#manager.lookup(args.task_id, context);
    const notStopped = { status: "not_stopped", reason: NOT_STOPPED } as const;
    if (execution === null) return failed(notStopped);
    if (!execution.live) return succeeded(notStopped);
    if (await execution.terminate("SIGKILL", 0, "stop")) {
      return succeeded({ status: "stopped", task_id: execution.id });
    }
    return failed({ status: "not_stopped", reason: STOP_FAILED });
  }

  /** This session's tasks, oldest first. */
  list(context: CallContext): Outcome<TaskList> {
    this.#manager.reap();
    return succeeded({ tasks: this.#manager.records(context.owner).map(taskSummary) });
  }

  /**
   * Blocks until the command ends. Its own timer kills it at the timeout; a client that cancels,
   * or a kill that does not end it, gets a kill of its own.
   */
  async #runForeground(execution: Execution, timeoutMs: number, context: CallContext) {
    const { keepaliveMs, clock, logger } = this.#options;
    const budgetMs = timeoutMs > 0 ? timeoutMs + PROCESS_GROUP_EXIT_MS + FINAL_DRAIN_MS : Infinity;
    const outcome = await blockOn(execution, budgetMs, context, {
      keepaliveMs,
      clock,
      logger,
      message: (_, elapsedMs) => stillRunning(Math.round(elapsedMs / 1000)),
    });
    if (outcome !== "finished") await execution.terminate("SIGKILL", 0, "stop");
  }

  #cut(execution: Execution): ResultCut {
    const truncation = this.#truncation.get(execution) ?? this.#options.truncation;
    return { maxChars: this.#options.maxOutputLength, truncation };
  }
}

/** The result of a command that could not start (tab-shell-mcp's start failure). */
function unstarted(command: string, reason: string): ShellCommandResult {
  return {
    status: "error",
    exit_code: null,
    stdout: "",
    stderr: failedToStart(reason),
    execution_time: 0,
    truncated: false,
    command,
  };
}
