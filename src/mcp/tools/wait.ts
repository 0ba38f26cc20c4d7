import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ExecutionManager } from "../../core/manager.ts";
import { callContext, type ToolExtra } from "../context.ts";
import { toolResult } from "../result.ts";
import {
  cursorFields,
  executionId,
  exitFields,
  maxOutputBytes,
  sinceSeq,
  status,
  tailLines,
  truncation,
} from "../schemas.ts";

export const WaitInputSchema = z.object({
  execution_id: executionId,
  timeout_ms: z.number().int().optional().describe(
    "Longest time to block (default and cap 55000); never stops the execution",
  ),
  max_output_bytes: maxOutputBytes,
  since_seq: sinceSeq,
  tail_lines: tailLines,
  truncation,
}).strict();

const WaitOutputSchema = z.object({
  execution_id: z.string(),
  status: status.optional(),
  ...exitFields,
  wait_result: z.enum(["exited", "deadline_reached"]).optional().describe(
    "exited when no live work remains; deadline_reached when the wait budget ran out first",
  ),
  waited_ms: z.number().optional(),
  max_wait_ms: z.number().int().optional().describe("The effective budget after capping"),
  ...cursorFields,
  error: z.string().optional(),
});

/** Registers `wait`. */
export function registerWaitTool(server: McpServer, manager: ExecutionManager, owner: string) {
  server.registerTool(
    "wait",
    {
      title: "Wait for an execution",
      description:
        "Block until the execution (by its opaque execution_id, passed through unchanged) and every process of its group have exited, or timeout_ms (capped at 55000) passes, then return new output. Never stops the execution: check wait_result to tell exited from deadline_reached.",
      inputSchema: WaitInputSchema,
      outputSchema: WaitOutputSchema,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args: z.infer<typeof WaitInputSchema>, extra: ToolExtra) =>
      toolResult(await manager.wait(args, callContext(owner, extra))),
  );
}
