import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { PsArgs } from "../../contract/arguments.ts";
import { argumentsSchema, exitFields, integer, status, withSandboxFields } from "../schemas.ts";
import type { ListedTool } from "../tool_list.ts";
import type { ToolOptions } from "../tool_settings.ts";

/** `ps`'s arguments. */
export function psInputSchema() {
  return argumentsSchema<PsArgs>({
    include_completed: z.boolean().default(true).describe("Include finished executions"),
    limit: integer().prefault(50).describe("Most entries, newest first"),
  });
}

const PsEntrySchema = z.object({
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
    "Time since the last output; large and growing while running may mean stuck",
  ),
  latest_seq: z.number().int(),
  stdin_error: z.string().nullable(),
});

/** Registers `ps`. */
export function registerPsTool(tools: ToolRegistry, options: ToolOptions): ListedTool {
  const { manager } = options;
  const inputSchema = psInputSchema();
  const tool = {
    name: "ps",
    title: "List executions",
    description:
      "List this session's executions, newest first, with status, exit code, output byte counts and activity (idle_ms, latest_seq). Finished records are kept for a while, then reaped.",
    inputSchema,
    outputSchema: z.object({
      executions: z.array(withSandboxFields(PsEntrySchema, options.settings.sandbox)),
    }),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
  return tools.add(tool, (args, context) => manager.ps(args, context));
}
