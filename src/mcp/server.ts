import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ExecutionManager } from "../core/manager.ts";
import { registerCleanupTool } from "./tools/cleanup.ts";
import { registerExecuteTool } from "./tools/execute.ts";
import { registerPsTool } from "./tools/ps.ts";
import { registerReadTool } from "./tools/read.ts";
import { registerStopTool } from "./tools/stop.ts";
import { registerWaitTool } from "./tools/wait.ts";
import { registerWriteTool } from "./tools/write.ts";

/** Server identity reported in `initialize`. */
export const SERVER_NAME = "YieldShell MCP";

/** Builds one MCP server object for one session over the shared execution manager. */
export function createServer(
  manager: ExecutionManager,
  options: { owner: string; version: string },
) {
  const server = new McpServer(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {} },
      // Bounds the work of validating pathological arguments (huge arrays, deep objects).
      maxToolInputElements: 10_000,
      instructions:
        "yieldshell runs shell commands. execute answers inline when a command is quick and otherwise returns an opaque execution_id; use read or wait to follow output (cursorless calls return each byte once), write for stdin, stop to end it, ps to list.",
    },
  );
  for (
    const register of [
      registerExecuteTool,
      registerReadTool,
      registerWriteTool,
      registerWaitTool,
      registerStopTool,
      registerPsTool,
      registerCleanupTool,
    ]
  ) register(server, manager, options.owner);
  return server;
}
