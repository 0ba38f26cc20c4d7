import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { TabShellTasks } from "../../core/tab_shell/tab_shell_tasks.ts";
import type { ListedTool } from "../tool_list.ts";
import { taskId } from "./result_schemas.ts";

export const StopBackgroundTaskInputSchema = z.object({
  task_id: taskId.describe("The task ID of the running background task to stop."),
}).strict();

const StopBackgroundTaskOutputSchema = z.object({
  status: z.enum(["stopped", "not_stopped"]),
  task_id: z.string().optional(),
  reason: z.string().optional().describe("Why nothing was stopped"),
});

/** Registers `stop_background_task`. */
export function registerStopBackgroundTaskTool(
  tools: ToolRegistry,
  tasks: TabShellTasks,
): ListedTool {
  const tool = {
    name: "stop_background_task",
    title: "Stop a background task",
    description:
      "Kill a running background task's whole process group (SIGKILL) and wait until it is gone: status stopped, and get_task_status then reports killed with the output so far. not_stopped means the task is unknown, expired or had already ended.",
    inputSchema: StopBackgroundTaskInputSchema,
    outputSchema: StopBackgroundTaskOutputSchema,
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
  return tools.add(tool, (args, context) => tasks.stop(args, context));
}
