import type { ToolRegistry } from "../tool_registry.ts";
import type { ListedTool } from "../tool_list.ts";
import type { TabShellTasks } from "../../core/tab_shell/tab_shell_tasks.ts";
import { registerExecuteShellCommandTool } from "./execute_shell_command.ts";
import { registerGetTaskStatusTool } from "./get_task_status.ts";
import { registerListBackgroundTasksTool } from "./list_background_tasks.ts";
import { registerStopBackgroundTaskTool } from "./stop_background_task.ts";

/** What the `tab-shell` profile tells the model in `initialize`. */
export const TAB_SHELL_INSTRUCTIONS =
  "execute_shell_command runs a shell command and waits for it up to its timeout, then kills it; with background: true it returns a task_id at once, which get_task_status, stop_background_task and list_background_tasks take.";

/** Registers tab-shell-mcp's four tools over `tasks`. */
export function registerTabShellTools(
  tools: ToolRegistry,
  tasks: TabShellTasks,
): ListedTool[] {
  return [
    registerExecuteShellCommandTool,
    registerGetTaskStatusTool,
    registerStopBackgroundTaskTool,
    registerListBackgroundTasksTool,
  ].map((register) => register(tools, tasks));
}
