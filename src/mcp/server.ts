import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ExecutionManager } from "../core/manager.ts";
import type { TabShellTasks } from "../core/tab_shell/tab_shell_tasks.ts";
import {
  registerTabShellTools,
  TAB_SHELL_INSTRUCTIONS,
} from "./tab_shell/register_tab_shell_tools.ts";
import { registerCleanupTool } from "./tools/cleanup.ts";
import { registerExecuteTool } from "./tools/execute.ts";
import { registerPsTool } from "./tools/ps.ts";
import { registerReadTool } from "./tools/read.ts";
import { registerStopTool } from "./tools/stop.ts";
import { registerWaitTool } from "./tools/wait.ts";
import { registerWriteTool } from "./tools/write.ts";

/** Server identity reported in `initialize`. */
export const SERVER_NAME = "YieldShell MCP";

/** What one session's server is built with. */
export interface ServerOptions {
  owner: string;
  version: string;
  /** The tab-shell-mcp tools, served beside (`both`) or instead of ours (`tab-shell`). */
  tabShell?: { tasks: TabShellTasks; only: boolean };
}

const INSTRUCTIONS =
  "yieldshell runs shell commands. execute answers inline when a command is quick and otherwise returns an opaque execution_id; use read or wait to follow output (cursorless calls return each byte once), write for stdin, stop to end it, ps to list.";

/** Builds one MCP server object for one session over the shared execution manager. */
export function createServer(manager: ExecutionManager, options: ServerOptions) {
  const { tabShell } = options;
  const instructions = tabShell === undefined
    ? INSTRUCTIONS
    : tabShell.only
    ? TAB_SHELL_INSTRUCTIONS
    : `${INSTRUCTIONS} ${TAB_SHELL_INSTRUCTIONS} A task_id is an execution_id: both tool sets work on the same commands.`;
  const server = new McpServer(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {} },
      // Bounds the work of validating pathological arguments (huge arrays, deep objects).
      maxToolInputElements: 10_000,
      instructions,
    },
  );
  const ours = tabShell?.only ? [] : [
    registerExecuteTool,
    registerReadTool,
    registerWriteTool,
    registerWaitTool,
    registerStopTool,
    registerPsTool,
    registerCleanupTool,
  ];
  for (const register of ours) register(server, manager, options.owner);
  if (tabShell !== undefined) registerTabShellTools(server, tabShell.tasks, options.owner);
  return server;
}
