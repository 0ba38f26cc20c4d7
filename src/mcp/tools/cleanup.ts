import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ExecutionManager } from "../../core/manager.ts";
import { callContext, type ToolExtra } from "../context.ts";
import { toolResult } from "../result.ts";

export const CleanupInputSchema = z.object({
  completed_older_than_ms: z.number().int().optional().describe(
    "Remove completed records older than this (default 3600000)",
  ),
  stopped_older_than_ms: z.number().int().optional().describe(
    "Remove stopped, timed-out and failed records older than this (default 3600000)",
  ),
}).strict();

const CleanupOutputSchema = z.object({
  removed: z.number().int(),
  error: z.string().optional(),
});

/** Registers `cleanup`. */
export function registerCleanupTool(server: McpServer, manager: ExecutionManager, owner: string) {
  server.registerTool(
    "cleanup",
    {
      title: "Prune finished records",
      description:
        "Remove this session's terminal execution records older than the thresholds. Running executions are never removed.",
      inputSchema: CleanupInputSchema,
      outputSchema: CleanupOutputSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args: z.infer<typeof CleanupInputSchema>, extra: ToolExtra) =>
      toolResult(manager.cleanup(args, callContext(owner, extra))),
  );
}
