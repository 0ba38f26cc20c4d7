import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** Payloads the agent must act on: a start that failed, an unknown id, a stop that failed. */
export function isFailure(payload: Record<string, unknown>): boolean {
  // A stop of an execution that had already ended reports its final status: not a failure.
  if (payload.stopped === false && typeof payload.status === "string") return false;
  return payload.status === "failed_to_start" || payload.ok === false ||
    payload.stopped === false || (typeof payload.error === "string");
}

/** Wraps a contract payload as structured content plus the same object as JSON text. */
export function toolResult(payload: Record<string, unknown>): CallToolResult {
  const result: CallToolResult = {
    content: [{ type: "text", text: JSON.stringify(payload) }],
    structuredContent: payload,
  };
  if (isFailure(payload)) result.isError = true;
  return result;
}
