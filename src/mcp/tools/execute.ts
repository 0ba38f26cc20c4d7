import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { ExecuteArgs } from "../../contract/arguments.ts";
import { GRACEFUL_STOP_MS, REQUEST_CEILING_MS } from "../../core/timing.ts";
import { SIDE_EFFECTS } from "../../policy/side_effects.ts";
import {
  argumentsSchema,
  cursorFields,
  exitFields,
  integer,
  maxOutputBytes,
  status,
  tailFields,
  truncation,
  withSandboxFields,
} from "../schemas.ts";
import type { ListedTool } from "../tool_list.ts";
import { MatchSchema, UntilResultSchema, UntilSchema } from "../until_schema.ts";
import type { ToolOptions, ToolSettings } from "../tool_settings.ts";
import { closeStdin, terminalFields, terminalSize, ttyFlag } from "../terminal_schemas.ts";
import { describeShell } from "./execute_description.ts";

/** `execute`'s arguments, with the operator's defaults and caps in their descriptions. */
export function executeInputSchema(settings: ToolSettings) {
  const yieldCapMs = Math.min(settings.maxYieldMs, REQUEST_CEILING_MS);
  const terminals = settings.terminals ?? false;
  const schema = argumentsSchema<ExecuteArgs>({
    command: z.string().max(1_048_576).describe("Command text for the shell"),
    side_effects: z.array(z.enum(SIDE_EFFECTS)).max(64).describe(
      describeSideEffects(settings.blockedSideEffects),
    ),
    cwd: z.string().max(4096).nullable().optional().describe(
      "Working directory, relative to the default cwd; must be under the allowed roots if set",
    ),
    env: z.record(z.string().max(4096), z.string().max(1_048_576)).nullable().optional()
      .describe("Variables set over the server's environment"),
    shell: z.string().max(4096).nullable().optional().describe(
      `Shell to run the command with instead of ${settings.defaultShell}; also checked by the command policy`,
    ),
    stdin: z.string().max(16_777_216).nullable().optional().describe(
      "Text written to stdin right after the start",
    ),
    close_stdin: closeStdin(terminals),
    name: z.string().max(1024).nullable().optional().describe("Label shown by ps"),
    yield_ms: integer().nullable().prefault(Math.min(settings.defaultYieldMs, yieldCapMs))
      .describe(
        `Milliseconds to wait before returning backgrounded, clamped to ${yieldCapMs}; 0 starts in the background`,
      ),
    timeout_ms: integer().nullable().prefault(settings.defaultTimeoutMs).describe(
      `Runtime limit (ms), then SIGTERM and ${
        GRACEFUL_STOP_MS / 1000
      } s later SIGKILL to the process group; 0 = none`,
    ),
    max_output_bytes: maxOutputBytes(settings.maxOutputBytes),
    truncation: truncation(settings.truncation),
    until: UntilSchema,
    tty: ttyFlag(terminals),
    cols: terminalSize("cols", "execute"),
    rows: terminalSize("rows", "execute"),
  });
  return terminals ? schema : schema.omit({ cols: true, rows: true });
}

function describeSideEffects(blocked: readonly string[]): string {
  const refused = blocked.length === 0
    ? "None is blocked here"
    : `Blocked here, failing before anything runs: ${blocked.join(", ")}`;
  const inline = blocked.includes("RUNS_INLINE_CODE")
    ? " (put inline code in a reviewable workspace file and run that)"
    : "";
  return `Every plausible side-effect category; ["NONE"] alone for read-only commands. ${refused}${inline}`;
}

const executeOutputFields = {
  status,
  execution_id: z.string().optional().describe("Opaque handle for read, write, wait and stop"),
  process_id: z.number().int().optional().describe("OS pid of the shell; not a handle"),
  ...exitFields,
  duration_ms: z.number().optional(),
  ...cursorFields,
  ...tailFields,
  until_result: UntilResultSchema.optional(),
  match: MatchSchema.optional(),
  message: z.string().optional(),
  error: z.string().optional().describe("Why the command did not start"),
};

function executeOutputSchema(settings: ToolSettings) {
  return z.object(
    settings.terminals ? { ...executeOutputFields, ...terminalFields } : executeOutputFields,
  );
}

/** Registers `execute`. */
export function registerExecuteTool(tools: ToolRegistry, options: ToolOptions): ListedTool {
  const { manager, settings } = options;
  const inputSchema = executeInputSchema(settings);
  const tool = {
    name: "execute",
    title: "Execute a shell command",
    description: describeExecute(settings),
    inputSchema,
    outputSchema: withSandboxFields(executeOutputSchema(settings), settings.sandbox),
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  };
  return tools.add(tool, (args, context) => manager.execute(args, context));
}

function describeExecute(settings: ToolSettings): string {
  const overlay = Object.entries(settings.nonInteractiveEnv).map(([name, value]) =>
    `${name}=${value}`
  );
  return [
    describeShell(settings.defaultShell),
    "Done within yield_ms: answered inline (completed); else it keeps running and returns backgrounded with an opaque execution_id for read, wait, write and stop (until returns backgrounded early, e.g. once a dev server prints its ready line). Returned output advances the read cursor.",
    `Non-interactive: stdin closed unless close_stdin is false${
      overlay.length === 0 ? "" : `; ${overlay.join(" ")} set`
    }.`,
  ].join(" ");
}
