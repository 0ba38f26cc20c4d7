import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { TabShellTasks } from "../../core/tab_shell/tab_shell_tasks.ts";
import type { ListedTool } from "../tool_list.ts";
import { describeMs, TaskSummarySchema } from "./result_schemas.ts";

const ListBackgroundTasksOutputSchema = z.object({ tasks: z.array(TaskSummarySchema) });

/** Registers `list_background_tasks`. */
export function registerListBackgroundTasksTool(
  tools: ToolRegistry,
  tasks: TabShellTasks,
): ListedTool {
  const tool = {
    name: "list_background_tasks",
    title: "List background tasks",
    description:
      `List this session's background tasks, running and finished, oldest first: task_id, command, status, created_at and completed_at (epoch seconds). Finished tasks are kept ${
        describeMs(tasks.settings.retentionMs)
      }. The text content is the JSON array tab-shell-mcp returns; structured content wraps it as {tasks}.`,
    inputSchema: z.object({}).strict(),
    outputSchema: ListBackgroundTasksOutputSchema,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
  // tab-shell-mcp answers with a bare array; MCP structured content must be an object.
  return tools.add(tool, (_args, context) => tasks.list(context), {
    text: (payload) => JSON.stringify(payload.tasks),
  });
}
