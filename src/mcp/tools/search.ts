import type { ToolRegistry } from "../tool_registry.ts";
import { z } from "zod";
import type { SearchArgs } from "../../contract/search.ts";
import type { ExecutionSearch } from "../../core/execution_search.ts";
import { argumentsSchema, executionId, integer, maxOutputBytes } from "../schemas.ts";
import type { ListedTool } from "../tool_list.ts";
import type { ToolOptions, ToolSettings } from "../tool_settings.ts";

/** `search`'s arguments; budgets default to the operator's response cap. */
export function searchInputSchema(settings: ToolSettings) {
  return argumentsSchema<SearchArgs>({
    execution_id: executionId,
    pattern: z.string().min(1).max(4096).describe(
      "JavaScript regex (or text, with fixed_string), per line",
    ),
    fixed_string: z.boolean().default(false).describe("pattern is plain text"),
    ignore_case: z.boolean().default(false).describe("Case-insensitive"),
    streams: z.string().max(64).default("both").describe("both, stdout or stderr"),
    cursor: z.string().max(256).nullable().optional().describe("A next_cursor, to continue"),
    context_lines: integer().prefault(2).describe("0 to 10"),
    max_matches: integer().prefault(50).describe("1 to 1000"),
    max_output_bytes: maxOutputBytes(settings.maxOutputBytes),
  });
}

/** A match; its other fields (stream, line_seq, before, after) are named in the description. */
const hit = z.looseObject({
  seq: z.number().int().describe("A since_seq for read"),
  line: z.number().int().nullable(),
  text: z.string(),
});

const SearchOutputSchema = z.looseObject({
  execution_id: z.string(),
  matches: z.array(hit).optional(),
  next_cursor: z.string().optional(),
  complete: z.boolean().optional(),
  hint: z.string().optional(),
  error: z.string().optional(),
});

/** Registers `search` over the session's executions. */
export function registerSearchTool(
  tools: ToolRegistry,
  options: ToolOptions & { search: ExecutionSearch },
): ListedTool {
  const { search } = options;
  const inputSchema = searchInputSchema(options.settings);
  const tool = {
    name: "search",
    title: "Search execution output",
    description:
      "Find lines matching a regex in all retained output of an execution (running or finished); each match has stream, seq, line_seq, line, text, before, after. Not complete: pass next_cursor.",
    inputSchema,
    outputSchema: SearchOutputSchema,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
  return tools.add(tool, (args, context) => search.search(args, context));
}
