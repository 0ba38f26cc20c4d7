import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { WriteArgs } from "../../contract/arguments.ts";
import { REQUEST_CEILING_MS } from "../../core/timing.ts";
import { argumentsSchema, executionId } from "../schemas.ts";
import { keys, terminalSize } from "../terminal_schemas.ts";
import type { ListedTool } from "../tool_list.ts";
import type { ToolOptions, ToolSettings } from "../tool_settings.ts";

/** `write`'s arguments. */
export function writeInputSchema(settings: ToolSettings) {
  const input = z.string().max(16_777_216);
  if (!settings.terminals) {
    return argumentsSchema<WriteArgs>({
      execution_id: executionId,
      input: input.describe("Text for the process's stdin"),
      newline: z.boolean().default(false).describe("Append \\n to the input"),
      close_stdin: z.boolean().default(false).describe("Close stdin after this write (EOF)"),
      keys,
      cols: terminalSize("cols", "write"),
      rows: terminalSize("rows", "write"),
    }).omit({ keys: true, cols: true, rows: true });
  }
  return argumentsSchema<WriteArgs>({
    execution_id: executionId,
    input: input.default("").describe("Text for the process's stdin"),
    newline: z.boolean().default(false).describe("Append \\n to the input (tty: Enter)"),
    close_stdin: z.boolean().default(false).describe(
      "Close stdin after this write (EOF); tty: types C-d",
    ),
    keys,
    cols: terminalSize("cols", "write"),
    rows: terminalSize("rows", "write"),
  });
}

const WriteOutputSchema = z.object({
  execution_id: z.string(),
  ok: z.boolean(),
  error: z.string().optional(),
});

/** Registers `write`. */
export function registerWriteTool(tools: ToolRegistry, options: ToolOptions): ListedTool {
  const { manager } = options;
  const inputSchema = writeInputSchema(options.settings);
  const tool = {
    name: "write",
    title: "Write to stdin",
    description:
      `Write to the stdin of a running execution started with close_stdin false; execution_id is opaque, passed through unchanged. Empty input with close_stdin true sends only EOF. Input not accepted within ${
        REQUEST_CEILING_MS / 1000
      } s returns ok false.`,
    inputSchema,
    outputSchema: WriteOutputSchema,
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  };
  return tools.add(tool, (args, context) => manager.write(args, context));
}
