import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { StopArgs } from "../../contract/arguments.ts";
import { GRACEFUL_STOP_MS, MAX_STOP_GRACE_MS } from "../../core/timing.ts";
import { argumentsSchema, executionId, integer, status } from "../schemas.ts";
import type { ListedTool } from "../tool_list.ts";
import type { ToolOptions } from "../tool_settings.ts";

/** `stop`'s arguments. */
export function stopInputSchema() {
  return argumentsSchema<StopArgs>({
    execution_id: executionId,
    signal: z.string().max(64).default("SIGTERM").describe(
      'Signal name: "SIGTERM", "SIGINT", "SIGKILL"...; "TERM" and "term" work too',
    ),
    force_after_ms: integer().prefault(GRACEFUL_STOP_MS).describe(
      `Grace before SIGKILL, clamped to 0..${MAX_STOP_GRACE_MS}`,
    ),
  });
}

const StopOutputSchema = z.object({
  execution_id: z.string(),
  stopped: z.boolean(),
  status: status.optional().describe("How the execution ended, when it had ended before the stop"),
  signal: z.string().optional(),
  error: z.string().nullable(),
});

/** Registers `stop`. */
export function registerStopTool(tools: ToolRegistry, options: ToolOptions): ListedTool {
  const { manager } = options;
  const inputSchema = stopInputSchema();
  const tool = {
    name: "stop",
    title: "Stop an execution",
    description:
      "Signal an execution's whole process group (by its opaque execution_id, passed through unchanged), wait force_after_ms, then SIGKILL what remains. stopped true: nothing of it runs any more.",
    inputSchema,
    outputSchema: StopOutputSchema,
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
  return tools.add(tool, (args, context) => manager.stop(args, context));
}
