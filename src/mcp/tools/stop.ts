import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ExecutionManager } from "../../core/manager.ts";
import { callContext, type ToolExtra } from "../context.ts";
import { toolResult } from "../result.ts";
import { executionId, status } from "../schemas.ts";

export const StopInputSchema = z.object({
  execution_id: executionId,
  signal: z.string().max(64).optional().describe(
    'Signal name such as "SIGTERM" (default), "SIGINT", "SIGKILL"; "TERM" and "term" work too',
  ),
  force_after_ms: z.number().int().optional().describe(
    "Grace before escalating to SIGKILL (default 10000, clamped to 0..46000)",
  ),
}).strict();

const StopOutputSchema = z.object({
  execution_id: z.string(),
  stopped: z.boolean(),
  status: status.optional().describe("How the execution ended, when it had ended before the stop"),
  signal: z.string().optional(),
  error: z.string().nullable(),
});

/** Registers `stop`. */
export function registerStopTool(server: McpServer, manager: ExecutionManager, owner: string) {
  server.registerTool(
    "stop",
    {
      title: "Stop an execution",
      description:
        "Send a signal to the execution's whole process group (by its opaque execution_id, passed through unchanged), wait force_after_ms, then SIGKILL whatever remains. stopped true means nothing of it is left running.",
      inputSchema: StopInputSchema,
      outputSchema: StopOutputSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (args: z.infer<typeof StopInputSchema>, extra: ToolExtra) =>
      toolResult(await manager.stop(args, callContext(owner, extra))),
  );
}
