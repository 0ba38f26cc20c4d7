/**
 * A tool's answer: the contract's payload, and whether it reports a failure the agent must act
 * on (a start that failed, an unknown id, a stop that failed), which MCP marks `isError`.
 */
export interface Outcome<T> {
  readonly payload: T;
  readonly failed: boolean;
}

/** An answer that reports no failure. */
export function succeeded<T>(payload: T): Outcome<T> {
  return { payload, failed: false };
}

/** An answer that reports a failure; the payload still says what happened. */
export function failed<T>(payload: T): Outcome<T> {
  return { payload, failed: true };
}
