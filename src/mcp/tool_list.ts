import type { z } from "zod";
import { compactJsonSchema } from "./json_schema.ts";

/** MCP's hints about what a tool does. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as it is served, named, with its zod schemas. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodType;
  outputSchema: z.ZodType;
  annotations: ToolAnnotations;
}

/** One `tools/list` entry. */
export interface ToolEntry {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

/** The `tools/list` entries of registered tools, with compact JSON Schemas. */
export function toolList(tools: readonly ListedTool[]): ToolEntry[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: compactJsonSchema(tool.inputSchema, "input"),
    outputSchema: compactJsonSchema(tool.outputSchema, "output"),
    annotations: tool.annotations,
  }));
}
