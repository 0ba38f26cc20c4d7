import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { ReadArgs } from "../../contract/arguments.ts";
import {
  argumentsSchema,
  cursorFields,
  executionId,
  exitFields,
  maxOutputBytes,
  sinceSeq,
  status,
  tailLines,
  withSandboxFields,
} from "../schemas.ts";
import { terminalFields, view } from "../terminal_schemas.ts";
import type { ListedTool } from "../tool_list.ts";
import type { ToolOptions, ToolSettings } from "../tool_settings.ts";

/** `read`'s arguments, defaulting to the operator's response cap. */
export function readInputSchema(settings: ToolSettings) {
  const schema = argumentsSchema<ReadArgs>({
    execution_id: executionId,
    since_seq: sinceSeq,
    max_output_bytes: maxOutputBytes(settings.maxOutputBytes),
    streams: z.string().max(64).default("both").describe(
      '"both", "stdout" or "stderr"; one stream is read without moving the server cursor',
    ),
    tail_lines: tailLines,
    view,
  });
  return settings.terminals ? schema : schema.omit({ view: true });
}

const readOutputFields = {
  execution_id: z.string(),
  status: status.optional(),
  ...exitFields,
  ...cursorFields,
  error: z.string().optional(),
};

function readOutputSchema(settings: ToolSettings) {
  return z.object(
    settings.terminals ? { ...readOutputFields, ...terminalFields } : readOutputFields,
  );
}

/** Registers `read`. */
export function registerReadTool(tools: ToolRegistry, options: ToolOptions): ListedTool {
  const { manager } = options;
  const inputSchema = readInputSchema(options.settings);
  const tool = {
    name: "read",
    title: "Read execution output",
    description:
      "Read an execution's output by its opaque execution_id (passed through unchanged). Without since_seq and tail_lines, on both streams, it resumes from the server cursor and advances it, so polling returns each byte once; other reads are peeks. capped: more is buffered (follow hint); evicted: older output is gone.",
    inputSchema,
    outputSchema: withSandboxFields(readOutputSchema(options.settings), options.settings.sandbox),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  };
  return tools.add(tool, (args, context) => manager.read(args, context));
}
