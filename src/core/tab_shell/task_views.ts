import type { Truncation } from "../../contract/arguments.ts";
import type {
  CommandResult,
  CommandStatus,
  TaskDetails,
  TaskStatus,
  TaskSummary,
} from "../../contract/tab_shell.ts";
import type { Execution } from "../execution.ts";
import type { StreamName } from "../output_log.ts";
import { type StreamText, truncateOutput } from "./truncate_output.ts";

/** How one record's output is cut: the server's character budget and the task's direction. */
export interface ResultCut {
  maxChars: number;
  truncation: Truncation;
}

/** A task's status in tab-shell-mcp's words; `running` while any of its processes lives. */
export function taskStatus(execution: Execution): TaskStatus {
  if (execution.live) return "running";
  switch (execution.status) {
    case "completed":
      return execution.exitCode === 0 ? "completed" : "error";
    case "timed_out":
      return "timeout";
    case "stopped":
      return "killed";
    default:
      return "error";
  }
}

/** The result of a finished command: statuses, exit code, and the whole output, cut to fit. */
export function commandResult(execution: Execution, cut: ResultCut): CommandResult {
  const status = commandStatus(execution);
  const output = truncateOutput(
    streamText(execution, "stdout"),
    streamText(execution, "stderr"),
    cut.maxChars,
    cut.truncation,
  );
  return {
    status,
    // A timeout has no exit code in tab-shell-mcp; a kill keeps the -N of its signal.
    exit_code: status === "timeout" || execution.status === "failed" ? null : execution.exitCode,
    stdout: output.stdout,
    stderr: output.stderr,
    execution_time: Math.round(execution.durationMs) / 1000,
    truncated: output.truncated,
    command: execution.redaction.text(execution.command),
  };
}

/** One row of `list_background_tasks`; the command is redacted as `ps` shows it. */
export function taskSummary(execution: Execution): TaskSummary {
  return {
    task_id: execution.id,
    command: execution.redaction.text(execution.command),
    status: taskStatus(execution),
    created_at: execution.startedAt,
    completed_at: execution.live ? null : execution.endedAt,
  };
}

/** `get_task_status`: the row, and the result once nothing of the task runs. */
export function taskDetails(execution: Execution, cut: ResultCut): TaskDetails {
  const summary = taskSummary(execution);
  return execution.live ? summary : { ...summary, result: commandResult(execution, cut) };
}

function commandStatus(execution: Execution): CommandStatus {
  if (execution.status === "timed_out") return "timeout";
  return execution.status === "completed" && execution.exitCode === 0 ? "success" : "error";
}

/** Everything still retained of one stream, redacted again as pages are. */
function streamText(execution: Execution, stream: StreamName): StreamText {
  const page = execution.log.read({ startSeq: 1, maxBytes: Infinity, streams: stream });
  return { text: execution.redaction.text(page[stream]), lostFront: page.evicted };
}
