import type { Outcome } from "../contract/outcome.ts";

/** A `tools/call` result. */
export interface CallToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/**
 * Wraps a tool's outcome as structured content plus the same object as JSON text; an outcome
 * the core reports failed is `isError`.
 */
export function toolResult(outcome: Outcome<Record<string, unknown>>): CallToolResult {
  const { payload } = outcome;
  const result: CallToolResult = {
    content: [{ type: "text", text: JSON.stringify(payload) }],
    structuredContent: payload,
  };
  if (outcome.failed) result.isError = true;
  return result;
}
