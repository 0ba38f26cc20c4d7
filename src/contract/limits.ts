import type { Truncation } from "./arguments.ts";

/** The numeric policy of the contract's settings, which the core enforces. */
export interface Limits {
  /** Default and maximum bytes of stdout plus stderr in one response. */
  maxOutputBytes: number;
  /** Bytes retained per stream of each execution. */
  maxBufferBytes: number;
  /** Most executions with live work at once. */
  maxProcesses: number;
  /** Yield window of an `execute` that passes no `yield_ms`. */
  defaultYieldMs: number;
  /** Largest accepted `yield_ms` (the contract still caps it at 55000). */
  maxYieldMs: number;
  /** Runtime limit of an `execute` that passes no `timeout_ms`; 0 is unlimited. */
  defaultTimeoutMs: number;
  /** Age after which terminal executions are reaped. */
  processRetentionMs: number;
  /** Most terminal executions kept after age-based reaping. */
  maxRetainedProcesses: number;
  /** Interval of progress notifications during blocking calls. */
  keepaliveIntervalMs: number;
  /** Default direction of output truncation. */
  truncation: Truncation;
}
