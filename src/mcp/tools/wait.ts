import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { WaitArgs } from "../../contract/arguments.ts";
import { REQUEST_CEILING_MS } from "../../core/timing.ts";
import {
  argumentsSchema,
  cursorFields,
  executionId,
  exitFields,
  integer,
  maxOutputBytes,
  sinceSeq,
  status,
  tailFields,
  tailLines,
  truncation,
  withSandboxFields,
} from "../schemas.ts";
import { terminalFields, view } from "../terminal_schemas.ts";
import type { ListedTool } from "../tool_list.ts";
import { MatchSchema, UntilSchema, WaitResultSchema } from "../until_schema.ts";
import type { ToolOptions, ToolSettings } from "../tool_settings.ts";

/** `wait`'s arguments, with the operator's response cap and truncation as defaults. */
export function waitInputSchema(settings: ToolSettings) {
  const schema = argumentsSchema<WaitArgs>({
    execution_id: executionId,
    timeout_ms: integer().prefault(REQUEST_CEILING_MS).describe(
      `Longest time to block, at most ${REQUEST_CEILING_MS}; never stops the execution`,
    ),
    max_output_bytes: maxOutputBytes(settings.maxOutputBytes),
    since_seq: sinceSeq,
    tail_lines: tailLines,
    truncation: truncation(settings.truncation),
    until: UntilSchema,
    view,
  });
  return settings.terminals ? schema : schema.omit({ view: true });
}

function waitOutputSchema(settings: ToolSettings) {
  const terminals = settings.terminals ?? false;
  const waitResult = terminals
    ? z.enum([...WaitResultSchema.options, "awaiting_input"]).describe(
      "exited, deadline_reached, the until condition that held, or awaiting_input: the tty program waits for input",
    )
    : WaitResultSchema;
  return z.object({
    execution_id: z.string(),
    status: status.optional(),
    ...exitFields,
    wait_result: waitResult.optional(),
    match: MatchSchema.optional(),
    waited_ms: z.number().optional(),
    max_wait_ms: z.number().int().optional().describe("The budget after capping"),
    ...cursorFields,
    ...tailFields,
    ...(terminals ? terminalFields : {}),
    error: z.string().optional(),
  });
}

/** Registers `wait`. */
export function registerWaitTool(tools: ToolRegistry, options: ToolOptions): ListedTool {
  const { manager } = options;
  const inputSchema = waitInputSchema(options.settings);
  const tool = {
    name: "wait",
    title: "Wait for an execution",
    description:
      "Block until an execution (by its opaque execution_id, passed through unchanged) and its whole process group have exited, or timeout_ms passes, or an until condition holds (output matching a regex, quiet output, a loopback port open, new bytes); then return new output like read. Never stops it: wait_result tells which happened.",
    inputSchema,
    outputSchema: withSandboxFields(waitOutputSchema(options.settings), options.settings.sandbox),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  };
  return tools.add(tool, (args, context) => manager.wait(args, context));
}
