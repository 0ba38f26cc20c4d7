import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ExecutionSearch } from "../core/execution_search.ts";
import type { ExecutionManager } from "../core/manager.ts";
import { attachSessionPushes } from "./session_pushes.ts";
import { type ListedTool, toolList } from "./tool_list.ts";
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

/** Builds one MCP server object for one session over the shared execution manager. */
export function createServer(manager: ExecutionManager, options: ServerOptions): McpServer {
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
  const tools = { manager, owner: options.owner, settings: options.settings };
  const ours = tabShell?.only ? [] : [
    registerExecuteTool,
    registerReadTool,
    registerWriteTool,
    registerWaitTool,
    registerStopTool,
    registerPsTool,
    registerCleanupTool,
  ].map((register) => register(server, tools));
  const { search } = options;
  if (!tabShell?.only && search !== undefined) {
    ours.push(registerSearchTool(server, { ...tools, search }));
  }
  const theirs = tabShell === undefined
    ? []
    : registerTabShellTools(server, tabShell.tasks, options.owner);
  const registered: ListedTool[] = [...ours, ...theirs];
  // The SDK declares `listChanged: true` once a tool is registered, but this list never changes
  // during a session and no list_changed notification is ever sent: declare that instead.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  // The SDK's own tools/list re-converts every schema per request, with safe-integer bounds
  // and `anyOf` pairs that cost the agent tokens and say nothing; serve the compact list instead.
  let list: Tool[] | undefined;
  server.server.setRequestHandler(ListToolsRequestSchema, () => {
    list ??= toolList(registered);
    return { tools: list };
  });
  // Word on exit, pushed: this session hears only about its own executions.
  attachSessionPushes(server, manager.events, { owner: options.owner });
  return server;
}
