import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { TabShellTasks } from "../../core/tab_shell/tab_shell_tasks.ts";
import type { ListedTool } from "../tool_list.ts";
import { CommandResultSchema, describeMs, taskId, taskStatus } from "./result_schemas.ts";

export const GetTaskStatusInputSchema = z.object({
  task_id: taskId.describe("The task ID returned by execute_shell_command."),
}).strict();

const GetTaskStatusOutputSchema = z.object({
  task_id: z.string().optional(),
  command: z.string().optional(),
  status: taskStatus.optional().describe(
    "running; completed (exit code 0); error (another exit code); timeout (killed at its timeout); killed (stopped)",
  ),
  created_at: z.number().optional().describe("Epoch seconds"),
  completed_at: z.number().nullable().optional().describe("Epoch seconds; null while running"),
  result: CommandResultSchema.optional().describe(
    "Present once the task has ended: its output, as a foreground execute_shell_command returns it",
  ),
  error: z.string().optional().describe("The task is unknown, or expired"),
});

/** Registers `get_task_status`. */
export function registerGetTaskStatusTool(
  tools: ToolRegistry,
  tasks: TabShellTasks,
): ListedTool {
  const tool = {
    name: "get_task_status",
    title: "Get a background task's status",
    description:
      `Get the status of a background task by the task_id that execute_shell_command returned: running, completed, error, timeout or killed. Once it is no longer running, result holds its exit_code, stdout, stderr and the rest, as a foreground command returns them. Nothing is readable while it runs. A finished task is forgotten ${
        describeMs(tasks.settings.retentionMs)
      } after it ended.`,
    inputSchema: GetTaskStatusInputSchema,
    outputSchema: GetTaskStatusOutputSchema,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
  return tools.add(tool, (args, context) => tasks.status(args, context));
}
