/**
 * The tab-shell-mcp 0.1.1 tools as the `tab-shell` profile serves them: arguments, result
 * shapes (keys in tab-shell's order) and its fixed texts.
 */
import type { Truncation } from "./arguments.ts";

/** Which tool set a server serves. */
export type ToolProfile = "yieldshell" | "tab-shell" | "both";

export interface TabShellExecuteArgs {
  command: string;
  background?: boolean;
  /** Seconds; null or absent means the server default. */
  timeout?: number | null;
  /** Empty means the server default ($SHELL, then /bin/sh). */
  shell?: string;
  cwd?: string | null;
  output_truncation_mode?: Truncation | null;
}

/** The `task_id` argument of `get_task_status` and `stop_background_task`. */
export interface TaskIdArgs {
  task_id: string;
}

/** How a command ended, in tab-shell's words. */
export type CommandStatus = "success" | "error" | "timeout";

/** The result of a foreground command, and of a finished background task. */
export type CommandResult = {
  status: CommandStatus;
  exit_code: number | null;
  stdout: string;
  stderr: string;
  /** Seconds, rounded to milliseconds. */
  execution_time: number;
  truncated: boolean;
  command: string;
};

/** A command the policy refused before anything ran. */
export type RejectedCommand = { status: "rejected"; reason: string };

/** A background start. */
export type BackgroundStart = { task_id: string; status: "running"; message: string };

export type ShellCommandResult = CommandResult | RejectedCommand | BackgroundStart;

/** Lifecycle of a background task. */
export type TaskStatus = "running" | "completed" | "error" | "timeout" | "killed";

/** One row of `list_background_tasks`. */
export type TaskSummary = {
  task_id: string;
  command: string;
  status: TaskStatus;
  /** Epoch seconds. */
  created_at: number;
  completed_at: number | null;
};

/** `get_task_status`: the row, plus the result once the task has ended. */
export type TaskDetails = TaskSummary & { result?: CommandResult };

export type TaskNotFound = { error: string };

export type StopTaskResult =
  | { status: "stopped"; task_id: string }
  | { status: "not_stopped"; reason: string };

export type TaskList = { tasks: TaskSummary[] };

export const BACKGROUND_STARTED = "Command started in background";
export const NOT_STOPPED = "Task not found or not running";
/** Marks where a stream was cut (tab-shell's marker, 14 characters). */
export const TRUNCATION_MARKER = "[...truncated]";

export function taskNotFound(id: string): string {
  return `Task '${id}' not found`;
}

/** The stderr of a command that could not start. */
export function failedToStart(reason: string): string {
  return `Failed to start command: ${reason}`;
}

/** The progress message while a foreground command runs. */
export function stillRunning(elapsedS: number): string {
  return `Command still running (${elapsedS}s elapsed)...`;
}
