import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { compactJsonSchema } from "./json_schema.ts";

/** A tool as registered with the SDK, named, with its zod schemas. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodType;
  outputSchema: z.ZodType;
  annotations: ToolAnnotations;
}

/** The `tools/list` entries of registered tools, with compact JSON Schemas. */
export function toolList(tools: readonly ListedTool[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: compactJsonSchema(tool.inputSchema, "input") as Tool["inputSchema"],
    outputSchema: compactJsonSchema(tool.outputSchema, "output") as Tool["outputSchema"],
    annotations: tool.annotations,
  }));
}
