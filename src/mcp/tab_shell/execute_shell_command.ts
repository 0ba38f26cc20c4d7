import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { TabShellTasks } from "../../core/tab_shell/tab_shell_tasks.ts";
import type { ListedTool } from "../tool_list.ts";
import { commandResultFields, describeMs } from "./result_schemas.ts";

export const ExecuteShellCommandInputSchema = z.object({
  command: z.string().max(1_048_576).describe("The shell command to execute."),
  background: z.boolean().default(false).describe(
    "If true, run in the background and return a task_id immediately; poll it with get_task_status",
  ),
  timeout: z.number().positive().nullable().optional().describe(
    "Timeout in seconds; when it expires the command's whole process group is killed. If omitted, uses the server default",
  ),
  shell: z.string().max(4096).default("").describe(
    "Shell executable to use, for example /bin/bash. Empty string means the server's shell (its configured shell, else $SHELL, else /bin/sh)",
  ),
  cwd: z.string().max(4096).nullable().optional().describe(
    "Working directory for the command. If omitted, uses the server's default directory",
  ),
  output_truncation_mode: z.enum(["head", "tail"]).nullable().optional().describe(
    "How to truncate oversized output: 'tail' keeps the end, 'head' keeps the beginning. If omitted, uses the server default",
  ),
}).strict();

const ExecuteShellCommandOutputSchema = z.object({
  status: z.enum(["success", "error", "timeout", "rejected", "running"]).describe(
    "success: exit code 0; error: another exit code, or it could not start; timeout: killed at its timeout; rejected: refused by the server's policy before anything ran; running: started in the background",
  ),
  ...commandResultFields,
  reason: z.string().optional().describe("Why the policy rejected the command"),
  task_id: z.string().optional().describe("Handle of a background task"),
  message: z.string().optional(),
});

/** Registers `execute_shell_command`. */
export function registerExecuteShellCommandTool(
  tools: ToolRegistry,
  tasks: TabShellTasks,
): ListedTool {
  const tool = {
    name: "execute_shell_command",
    title: "Execute a shell command",
    description: describe(tasks),
    inputSchema: ExecuteShellCommandInputSchema,
    outputSchema: ExecuteShellCommandOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  };
  return tools.add(tool, (args, context) => tasks.execute(args, context));
}

function describe(tasks: TabShellTasks): string {
  const { foregroundTimeoutMs, backgroundTimeoutMs, maxOutputLength, truncation } = tasks.settings;
  const kept = truncation === "tail" ? "end" : "beginning";
  return [
    `Run a shell command and wait for it to finish, at most its timeout (default ${
      describeMs(foregroundTimeoutMs)
    }); then its whole process group is killed and status is timeout.`,
    "The result has status (success, error, timeout, or rejected with a reason when the server's policy refuses the command before it runs), exit_code, stdout, stderr, execution_time in seconds, truncated and command.",
    `stdout plus stderr is cut to ${maxOutputLength} characters, keeping the ${kept} of each stream unless output_truncation_mode says otherwise; "[...truncated]" marks each cut.`,
    `For commands that take longer, pass background: true (default timeout ${
      describeMs(backgroundTimeoutMs)
    }): you get a task_id at once; poll get_task_status for the result and stop it with stop_background_task.`,
    "Commands run non-interactively: stdin is closed, and CI=true, GIT_TERMINAL_PROMPT=0 and PAGER=cat are set.",
  ].join(" ");
}
