import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ExecutionManager } from "../../core/manager.ts";
import { callContext, type ToolExtra } from "../context.ts";
import { toolResult } from "../result.ts";
import { exitFields, status } from "../schemas.ts";

export const PsInputSchema = z.object({
  include_completed: z.boolean().optional().describe("Include terminal records (default true)"),
  limit: z.number().int().optional().describe("Maximum entries, most recent first (default 50)"),
}).strict();

const PsOutputSchema = z.object({
  executions: z.array(z.object({
    execution_id: z.string(),
    process_id: z.number().int().nullable(),
    name: z.string().nullable(),
    command: z.string(),
    cwd: z.string(),
    status,
    ...exitFields,
    started_at: z.number(),
    ended_at: z.number().nullable(),
    duration_ms: z.number(),
    stdout_bytes: z.number().int(),
    stderr_bytes: z.number().int(),
    last_output_at: z.number().nullable(),
    idle_ms: z.number().nullable().describe(
      "Time since the last output; large and growing on a running execution may mean it is stuck",
    ),
    latest_seq: z.number().int(),
    stdin_error: z.string().nullable(),
  })),
});

/** Registers `ps`. */
export function registerPsTool(server: McpServer, manager: ExecutionManager, owner: string) {
  server.registerTool(
    "ps",
    {
      title: "List executions",
      description:
        "List this session's executions, most recent first, with status, exit code, output byte counts and activity (idle_ms, latest_seq). Terminal records are kept for a while, then reaped.",
      inputSchema: PsInputSchema,
      outputSchema: PsOutputSchema,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args: z.infer<typeof PsInputSchema>, extra: ToolExtra) =>
      toolResult(manager.ps(args, callContext(owner, extra))),
  );
}
