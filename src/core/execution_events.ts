import type { ExecutionStatus } from "../contract/results.ts";

/** What happens to an execution that its session may hear about without polling. */
export type ExecutionEvent =
  | { type: "started"; owner: string; id: string }
  /** New output was captured (emitted per chunk; pushes throttle it). */
  | { type: "output"; owner: string; id: string }
  | {
    type: "ended";
    owner: string;
    id: string;
    status: ExecutionStatus;
    exitCode: number | null;
    signal: string | null;
    /** True when `execute` returned `backgrounded`: nobody is holding an inline result. */
    backgrounded: boolean;
    /** Label for messages: the name, else the command (already redacted). */
    label: string;
  }
  /** Retention or cleanup removed the record. */
  | { type: "removed"; owner: string; id: string };

/** One execution as `resources/list` shows it. */
export interface ExecutionListing {
  id: string;
  /** The name, else the command (already redacted). */
  label: string;
  status: ExecutionStatus;
}

/** The execution registry as the pushes see it (the manager implements it). */
export interface ExecutionFeed {
  /** Calls `listener` for every event of every session; returns the function that unsubscribes. */
  subscribe(listener: (event: ExecutionEvent) => void): () => void;
  /** Executions of `owner`, newest first. */
  list(owner: string): ExecutionListing[];
  /** Status and newest output of one execution of `owner` (already redacted), or null. */
  view(owner: string, id: string): Record<string, unknown> | null;
}
