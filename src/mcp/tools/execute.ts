import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ExecutionManager } from "../../core/manager.ts";
import { SIDE_EFFECTS } from "../../policy/side_effects.ts";
import { callContext, type ToolExtra } from "../context.ts";
import { toolResult } from "../result.ts";
import { cursorFields, exitFields, maxOutputBytes, status, truncation } from "../schemas.ts";

export const ExecuteInputSchema = z.object({
  command: z.string().max(1_048_576).describe("The command string to execute in the shell"),
  side_effects: z.array(z.enum(SIDE_EFFECTS)).max(64).describe(
    'Every plausible side-effect category of this command; ["NONE"] for read-only commands. NONE is exclusive. Calls declaring a category the operator blocked (by default KILLS_AGENT_PROCESS, MODIFIES_OS_SETTINGS, MODIFIES_OS_USER_SETTINGS, MODIFIES_PROTECTED_FILES, RUNS_INLINE_CODE) are rejected with failed_to_start before anything runs. Prefer writing inline code to a reviewable workspace file and running it',
  ),
  cwd: z.string().max(4096).nullable().optional().describe(
    "Working directory (relative paths resolve against the server's default cwd); must be under the allowed roots when configured",
  ),
  env: z.record(z.string().max(4096), z.string().max(1_048_576)).nullable().optional().describe(
    "Environment variables added over the server's environment",
  ),
  shell: z.string().max(4096).nullable().optional().describe(
    "Shell executable that runs the command with -c; checked by the same command policy",
  ),
  stdin: z.string().max(16_777_216).nullable().optional().describe(
    "Initial text written to standard input right after spawning",
  ),
  close_stdin: z.boolean().optional().describe(
    "Close stdin after the initial input (default true); set false to send more with write",
  ),
  name: z.string().max(1024).nullable().optional().describe(
    "A human-readable label shown by ps",
  ),
  yield_ms: z.number().int().nullable().optional().describe(
    "Milliseconds to wait before returning backgrounded (default 30000, at most 55000); 0 starts in the background",
  ),
  timeout_ms: z.number().int().nullable().optional().describe(
    "Total runtime limit; on expiry the process group gets SIGTERM, then SIGKILL (default 3600000; 0 = unlimited)",
  ),
  max_output_bytes: maxOutputBytes,
  truncation,
}).strict();

const ExecuteOutputSchema = z.object({
  status,
  execution_id: z.string().optional().describe("Opaque handle for read, write, wait and stop"),
  process_id: z.number().int().optional().describe("OS pid of the shell; not a handle"),
  ...exitFields,
  duration_ms: z.number().optional(),
  ...cursorFields,
  message: z.string().optional(),
  error: z.string().optional().describe("Why the command did not start"),
});

/** Registers `execute`. */
export function registerExecuteTool(server: McpServer, manager: ExecutionManager, owner: string) {
  server.registerTool(
    "execute",
    {
      title: "Execute a shell command",
      description:
        "Run a shell command. If it finishes within yield_ms the result is returned inline (completed); otherwise it keeps running in the background and you get status backgrounded with an opaque execution_id to pass unchanged to read, wait, write or stop. Output returned here advances the server-side read cursor, so a following cursorless read or wait continues after it. Children run non-interactively: stdin is closed unless close_stdin is false, and CI=true, GIT_TERMINAL_PROMPT=0, PAGER=cat are set.",
      inputSchema: ExecuteInputSchema,
      outputSchema: ExecuteOutputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    async (args: z.infer<typeof ExecuteInputSchema>, extra: ToolExtra) =>
      toolResult(await manager.execute(args, callContext(owner, extra))),
  );
}
