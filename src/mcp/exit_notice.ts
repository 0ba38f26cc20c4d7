import type { ExecutionEvent } from "../core/execution_events.ts";

type Ended = Extract<ExecutionEvent, { type: "ended" }>;

/** Longest label quoted in a notice. */
const MAX_LABEL = 80;

/** One sentence on how a background execution ended, naming it and its exit code. */
export function exitSummary(event: Ended): string {
  const label = event.label.length > MAX_LABEL
    ? `${event.label.slice(0, MAX_LABEL - 1)}…`
    : event.label;
  const code = event.exitCode === null ? "no exit code" : `exit code ${event.exitCode}`;
  const how = event.status === "completed"
    ? `completed with ${code}`
    : event.status === "stopped"
    ? `was stopped (${code}${event.signal === null ? "" : `, ${event.signal}`})`
    : event.status === "timed_out"
    ? `timed out and was stopped (${code})`
    : `failed (${code})`;
  return `Background execution ${event.id} (${label}) ${how}`;
}

/** The follow-up the agent can make. */
export function exitFollowUp(id: string): string {
  return `its output is still readable: call read or wait with execution_id "${id}"`;
}
