/**
 * The arguments of each tool as the core receives them; the zod schemas of `src/mcp/tools/`
 * describe the same shapes for the model.
 */
export type Truncation = "head" | "tail";

/** `until` of `wait` and `execute`: each field one condition or a refinement of one. */
export interface UntilArgs {
  output?: string | null;
  streams?: string | null;
  scope?: string | null;
  ignore_case?: boolean | null;
  idle_ms?: number | null;
  port?: number | null;
  host?: string | null;
  bytes?: number | null;
}
/**
 * How a terminal execution's output is shown: `text` (escapes removed, `\r` lines collapsed),
 * `screen` (the rendered screen), `raw` (as written, escapes kept), or `auto` (`text`, or
 * `screen` when the program paints in two dimensions).
 */
export type TerminalViewChoice = "auto" | "text" | "screen" | "raw";

export interface ExecuteArgs {
  command: string;
  side_effects: readonly string[];
  cwd?: string | null;
  env?: Record<string, string> | null;
  shell?: string | null;
  stdin?: string | null;
  close_stdin?: boolean;
  name?: string | null;
  yield_ms?: number | null;
  timeout_ms?: number | null;
  max_output_bytes?: number | null;
  truncation?: Truncation | null;
  until?: UntilArgs | null;
  /** Run on a pseudo-terminal. */
  tty?: boolean;
  cols?: number | null;
  rows?: number | null;
}

export interface ReadArgs {
  execution_id: string;
  since_seq?: number | null;
  max_output_bytes?: number | null;
  streams?: string;
  tail_lines?: number | null;
  view?: TerminalViewChoice | null;
}

export interface WriteArgs {
  execution_id: string;
  input: string;
  newline?: boolean;
  close_stdin?: boolean;
  /** Named keys typed after `input` (terminal executions). */
  keys?: readonly string[] | null;
  /** A new terminal size, set before anything is typed. */
  cols?: number | null;
  rows?: number | null;
}

export interface WaitArgs {
  execution_id: string;
  timeout_ms?: number;
  max_output_bytes?: number | null;
  since_seq?: number | null;
  tail_lines?: number | null;
  truncation?: Truncation | null;
  until?: UntilArgs | null;
  view?: TerminalViewChoice | null;
}

export interface StopArgs {
  execution_id: string;
  signal?: string;
  force_after_ms?: number;
}

export interface PsArgs {
  include_completed?: boolean;
  limit?: number;
}

export interface CleanupArgs {
  completed_older_than_ms?: number;
  stopped_older_than_ms?: number;
}
