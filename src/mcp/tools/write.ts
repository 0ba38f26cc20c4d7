import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ExecutionManager } from "../../core/manager.ts";
import { callContext, type ToolExtra } from "../context.ts";
import { toolResult } from "../result.ts";
import { executionId } from "../schemas.ts";

export const WriteInputSchema = z.object({
  execution_id: executionId,
  input: z.string().max(16_777_216).describe("Text to write to the process's stdin"),
  newline: z.boolean().optional().describe("Append \\n to the input (default false)"),
  close_stdin: z.boolean().optional().describe(
    "Close stdin after this write, delivering EOF (default false)",
  ),
}).strict();

const WriteOutputSchema = z.object({
  execution_id: z.string(),
  ok: z.boolean(),
  error: z.string().optional(),
});

/** Registers `write`. */
export function registerWriteTool(server: McpServer, manager: ExecutionManager, owner: string) {
  server.registerTool(
    "write",
    {
      title: "Write to stdin",
      description:
        "Write text to the stdin of a running execution started with close_stdin false. execution_id is opaque and must be passed through unchanged. An empty input with close_stdin true sends only EOF. A write the process does not accept within 55 s returns ok false.",
      inputSchema: WriteInputSchema,
      outputSchema: WriteOutputSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args: z.infer<typeof WriteInputSchema>, extra: ToolExtra) =>
      toolResult(await manager.write(args, callContext(owner, extra))),
  );
}
