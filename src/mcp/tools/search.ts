import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { SearchArgs } from "../../contract/search.ts";
import type { ExecutionSearch } from "../../core/execution_search.ts";
import { callContext, type ToolExtra } from "../context.ts";
import { toolResult } from "../result.ts";
import { argumentsSchema, executionId, integer, maxOutputBytes, status } from "../schemas.ts";
import type { ListedTool } from "../tool_list.ts";
import type { ToolOptions, ToolSettings } from "../tool_settings.ts";

/** `search`'s arguments; budgets default to the operator's response cap. */
export function searchInputSchema(settings: ToolSettings) {
  return argumentsSchema<SearchArgs>({
    execution_id: executionId,
    pattern: z.string().min(1).max(4096).describe(
      "JavaScript regular expression (or plain text with fixed_string), matched per line",
    ),
    fixed_string: z.boolean().default(false).describe("Match pattern as plain text"),
    ignore_case: z.boolean().default(false),
    streams: z.string().max(64).default("both").describe('"both", "stdout" or "stderr"'),
    cursor: z.string().max(256).nullable().optional().describe(
      "next_cursor of the previous search, to continue",
    ),
    context_lines: integer().prefault(2).describe("Lines before and after, 0 to 10"),
    max_matches: integer().prefault(50).describe("1 to 1000"),
    max_output_bytes: maxOutputBytes(settings.maxOutputBytes),
  });
}

const hit = z.object({
  stream: z.enum(["stdout", "stderr"]),
  seq: z.number().int().describe("Position of the match; a since_seq for read"),
  line_seq: z.number().int(),
  line: z.number().int().nullable(),
  text: z.string(),
  before: z.array(z.string()),
  after: z.array(z.string()),
});

const SearchOutputSchema = z.object({
  execution_id: z.string(),
  status: status.optional(),
  matches: z.array(hit).optional(),
  next_cursor: z.string().optional(),
  complete: z.boolean().optional().describe("All retained output was searched"),
  stopped_by: z.enum(["max_matches", "max_output_bytes", "time_limit"]).nullable().optional(),
  evicted: z.boolean().optional(),
  scanned_bytes: z.number().int().optional(),
  latest_seq: z.number().int().optional(),
  hint: z.string().optional(),
  error: z.string().optional(),
});

/** Registers `search` over the session's executions. */
export function registerSearchTool(
  server: McpServer,
  options: ToolOptions & { search: ExecutionSearch },
): ListedTool {
  const { search, owner } = options;
  const inputSchema = searchInputSchema(options.settings);
  const tool = {
    name: "search",
    title: "Search execution output",
    description:
      "Find lines matching a regular expression (or fixed_string) in the whole retained output of one execution, running or finished, without moving its cursor. Each match has its stream, seq (pass to read as since_seq), line number and context lines. Not complete: pass next_cursor to continue.",
    inputSchema,
    outputSchema: SearchOutputSchema,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
  server.registerTool(
    tool.name,
    tool,
    async (args: z.infer<typeof inputSchema>, extra: ToolExtra) =>
      toolResult(await search.search(args, callContext(owner, extra))),
  );
  return tool;
}
