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
} from "../schemas.ts";

export const ReadInputSchema = z.object({
  execution_id: executionId,
  since_seq: sinceSeq,
  max_output_bytes: maxOutputBytes,
  streams: z.string().max(64).optional().describe(
    '"both" (default), "stdout" or "stderr"; a narrowed read is out-of-band',
  ),
  tail_lines: tailLines,
}).strict();

const ReadOutputSchema = z.object({
  execution_id: z.string(),
  status: status.optional(),
  ...exitFields,
  ...cursorFields,
  error: z.string().optional(),
});

/** Registers `read`. */
export function registerReadTool(server: McpServer, manager: ExecutionManager, owner: string) {
  server.registerTool(
    "read",
    {
      title: "Read execution output",
      description:
        "Read stdout/stderr of an execution by its opaque execution_id (passed through unchanged). With no since_seq, no tail_lines and streams both, the read resumes from the server-side cursor and advances it, so polling returns each byte exactly once. since_seq, tail_lines and narrowed streams are out-of-band peeks. capped means more is buffered (follow the hint); evicted means older output is gone.",
      inputSchema: ReadInputSchema,
      outputSchema: ReadOutputSchema,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args: z.infer<typeof ReadInputSchema>, extra: ToolExtra) =>
      toolResult(manager.read(args, callContext(owner, extra))),
  );
}
