/**
 * The result of each tool, keys in the contract's order. Type aliases rather than interfaces,
 * so that a result is also a plain `Record<string, unknown>` for the MCP layer.
 */

/** Lifecycle states kept on a record; `running` also covers a shell whose group lives on. */
export type ExecutionStatus = "running" | "completed" | "stopped" | "timed_out" | "failed";

/** The statuses `execute` reports: a record's, or why there is none to run yet. */
export type ExecuteStatus = ExecutionStatus | "backgrounded" | "failed_to_start";

/** How the shell ended; null while it runs. */
export type ExitFields = {
  exit_code: number | null;
  signal: string | null;
};

/** One page of output and the cursor around it. */
export type PageFields = {
  stdout: string;
  stderr: string;
  start_seq: number;
  next_seq: number;
  latest_seq: number;
  capped: boolean;
  evicted: boolean;
  hint?: string;
  /** The default view of a capped head page: each stream's newest bytes, out of band. */
  stdout_tail?: string;
  stdout_tail_seq?: number;
  stderr_tail?: string;
  stderr_tail_seq?: number;
};

/** Which `until` condition held (`wait_result` adds `exited` and `deadline_reached`). */
export type UntilResult = "output_matched" | "bytes_reached" | "idle" | "port_open";

/** The output an `output_matched` result matched; the page ends with its line. */
export type MatchFields = { stream: "stdout" | "stderr"; text: string; seq: number };

/** What a result says about the `until` condition that held. */
export type UntilFields = { match?: MatchFields };
/** Why a terminal program waits for the agent (see `src/terminal/awaiting_input.ts`). */
export type AwaitingInputReason = "password" | "prompt" | "keys";

/** What results of a terminal execution add after the contract's fields. */
export type TerminalFields = {
  tty?: {
    cols: number;
    rows: number;
    /** The view `stdout` holds. */
    view: "text" | "screen" | "raw";
    /** A terminal has one output stream: it is reported as stdout, and stderr stays empty. */
    output: "stdout";
  };
  /** The program waits for input (null: it does not, or it ended); terminal executions only. */
  awaiting_input?: AwaitingInputReason | null;
};

/**
 * What a result of an execution says about its OS sandbox (absent when the sandbox is off): the
 * profile it runs under, and for a failure the profile explains, the side effect to declare.
 */
export type SandboxFields = {
  sandbox?: string;
  sandbox_hint?: string;
};

/** A call that names an execution and was refused (unknown id, bad cursor arguments). */
export type RefusedCall = { execution_id: string; error: string };

export type ExecuteResult =
  | { status: "failed_to_start"; error: string }
  | (
    & {
      status: Exclude<ExecuteStatus, "failed_to_start">;
      execution_id?: string;
      process_id?: number;
      exit_code?: number | null;
      signal?: string | null;
      duration_ms: number;
    }
    & PageFields
    & { until_result?: UntilResult }
    & UntilFields
    & { message?: string; stdin_error?: string }
    & SandboxFields
    & TerminalFields
  );

/** A read narrowed to one stream leaves the other out. */
export type ReadResult =
  | RefusedCall
  | (
    & { execution_id: string; status: ExecutionStatus }
    & ExitFields
    & Omit<PageFields, "stdout" | "stderr">
    & { stdout?: string; stderr?: string; stdin_error?: string }
    & SandboxFields
    & TerminalFields
  );

export type WriteResult = { execution_id: string; ok: boolean; error?: string };

export type WaitResult =
  | RefusedCall
  | (
    & { execution_id: string; status: ExecutionStatus }
    & ExitFields
    & {
      wait_result: "exited" | "deadline_reached" | "awaiting_input" | UntilResult;
      waited_ms: number;
      max_wait_ms: number;
    }
    & UntilFields
    & PageFields
    & { stdin_error?: string }
    & SandboxFields
    & TerminalFields
  );

export type StopResult = {
  execution_id: string;
  stopped: boolean;
  /** Present when the execution had already ended: how it ended. */
  status?: ExecutionStatus;
  signal?: string;
  error: string | null;
};

export type PsEntry = {
  execution_id: string;
  process_id: number;
  name: string | null;
  command: string;
  cwd: string;
  status: ExecutionStatus;
  exit_code: number | null;
  signal: string | null;
  started_at: number;
  ended_at: number | null;
  duration_ms: number;
  stdout_bytes: number;
  stderr_bytes: number;
  last_output_at: number | null;
  idle_ms: number | null;
  latest_seq: number;
  stdin_error: string | null;
  sandbox?: string;
};

export type PsResult = { executions: PsEntry[] };

export type CleanupResult = { removed: number; error?: string };
