import type { Clock } from "./clock.ts";
import type { Execution } from "./execution.ts";

/** Milliseconds since the execution's newest output, or since its start before any. */
export function idleMs(execution: Execution, clock: Clock): number {
  const last = execution.lastOutputAt;
  return last === null ? execution.durationMs : Math.max(0, clock.nowMs() - last * 1000);
}
