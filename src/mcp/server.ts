import type { ExecutionSearch } from "../core/execution_search.ts";
import type { ExecutionManager } from "../core/manager.ts";
import { attachSessionPushes } from "./session_pushes.ts";
import { ProtocolServer } from "../protocol/protocol_server.ts";
import { ToolRegistry } from "./tool_registry.ts";
import type { ToolSettings } from "./tool_settings.ts";
import type { TabShellTasks } from "../core/tab_shell/tab_shell_tasks.ts";
import {
  registerTabShellTools,
  TAB_SHELL_INSTRUCTIONS,
} from "./tab_shell/register_tab_shell_tools.ts";
import { registerCleanupTool } from "./tools/cleanup.ts";
import { registerExecuteTool } from "./tools/execute.ts";
import { registerPsTool } from "./tools/ps.ts";
import { registerReadTool } from "./tools/read.ts";
import { registerSearchTool } from "./tools/search.ts";
import { registerStopTool } from "./tools/stop.ts";
import { registerWaitTool } from "./tools/wait.ts";
import { registerWriteTool } from "./tools/write.ts";

/** Server identity reported in `initialize`. */
export const SERVER_NAME = "YieldShell MCP";

/** What one session's server is built with. */
export interface ServerOptions {
  /** Session id; executions are visible only to the session that started them. */
  owner: string;
  version: string;
  /** The operator's values, stated by tool descriptions and argument defaults. */
  settings: ToolSettings;
  /** The tab-shell-mcp tools, served beside (`both`) or instead of ours (`tab-shell`). */
  tabShell?: { tasks: TabShellTasks; only: boolean };
  /** The `search` tool's operation; without it the tool is not served. */
  search?: ExecutionSearch;
}

const INSTRUCTIONS =
  "yieldshell runs shell commands. execute answers inline when a command is quick and otherwise returns an opaque execution_id; use read or wait to follow output (cursorless calls return each byte once), write for stdin, stop to end it, ps to list.";

/** The registrations of the contract's seven tools, in tools/list order (search comes after). */
export const CONTRACT_TOOLS = [
  registerExecuteTool,
  registerReadTool,
  registerWriteTool,
  registerWaitTool,
  registerStopTool,
  registerPsTool,
  registerCleanupTool,
] as const;

/** Builds one MCP server object for one session over the shared execution manager. */
export function createServer(manager: ExecutionManager, options: ServerOptions): ProtocolServer {
  const { tabShell, owner } = options;
  const instructions = tabShell === undefined
    ? INSTRUCTIONS
    : tabShell.only
    ? TAB_SHELL_INSTRUCTIONS
    : `${INSTRUCTIONS} ${TAB_SHELL_INSTRUCTIONS} A task_id is an execution_id: both tool sets work on the same commands.`;
  const server = new ProtocolServer(
    { name: SERVER_NAME, version: options.version },
    { instructions },
  );
  const registry = new ToolRegistry(server, owner);
  if (!tabShell?.only) {
    const tools = { manager, settings: options.settings };
    for (const register of CONTRACT_TOOLS) register(registry, tools);
    const { search } = options;
    if (search !== undefined) registerSearchTool(registry, { ...tools, search });
  }
  if (tabShell !== undefined) registerTabShellTools(registry, tabShell.tasks);
  // Word on exit, pushed: this session hears only about its own executions.
  attachSessionPushes(server, manager.events, { owner });
  return server;
}
