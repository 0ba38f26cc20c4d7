import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { CleanupArgs } from "../../contract/arguments.ts";
import { argumentsSchema, integer } from "../schemas.ts";
import type { ListedTool } from "../tool_list.ts";
import type { ToolOptions } from "../tool_settings.ts";

/** The contract's default age threshold of both kinds of record: one hour. */
const DEFAULT_AGE_MS = 3_600_000;

/** `cleanup`'s arguments. */
export function cleanupInputSchema() {
  return argumentsSchema<CleanupArgs>({
    completed_older_than_ms: integer().prefault(DEFAULT_AGE_MS).describe(
      "Remove completed records older than this",
    ),
    stopped_older_than_ms: integer().prefault(DEFAULT_AGE_MS).describe(
      "Remove stopped, timed-out and failed records older than this",
    ),
  });
}

const CleanupOutputSchema = z.object({
  removed: z.number().int(),
  error: z.string().optional(),
});

/** Registers `cleanup`. */
export function registerCleanupTool(tools: ToolRegistry, options: ToolOptions): ListedTool {
  const { manager } = options;
  const inputSchema = cleanupInputSchema();
  const tool = {
    name: "cleanup",
    title: "Prune finished records",
    description:
      "Remove this session's finished execution records older than the thresholds; running ones are never removed.",
    inputSchema,
    outputSchema: CleanupOutputSchema,
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
  return tools.add(tool, (args, context) => manager.cleanup(args, context));
}
