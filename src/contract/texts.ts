import { pythonRepr } from "./python_repr.ts";

/** Fixed texts of the mcp-yieldshell 1.1 contract, quoted exactly, and our own error texts. */
export const BACKGROUNDED_MESSAGE =
  "Execution is running in the background. Use read, wait, or stop with execution_id.";
export const EVICTED_HINT =
  "Older execution output was dropped before this read and cannot be recovered; poll more often or raise YIELDSHELL_MAX_BUFFER_BYTES.";
export const REAPED_HINT =
  "Additional execution output was omitted and cannot be recovered because retention removed the completed record.";
export const TAILS_HINT =
  "stdout_tail and stderr_tail show the newest bytes of each stream (from stdout_tail_seq, stderr_tail_seq), out of band; the output between next_seq and them is not shown, read again to continue or search it.";
export const SHUTTING_DOWN = "Server is shutting down";
export const TAIL_EXCLUSIVE =
  "tail_lines and since_seq are mutually exclusive; use tail_lines for a snapshot of the newest output or since_seq to continue an incremental read";
export const CLEANUP_NEGATIVE = "Cleanup age thresholds must be non-negative";
export const STOP_FAILED = "Process group did not stop after force kill";
export const STDIN_CLOSED = "Process stdin is closed";
export const STDIN_BUSY = "Initial stdin write is still in progress";
export const COMMAND_HAS_NUL =
  "Command must not contain NUL bytes; remove them or pass data through stdin";

/**
 * The evicted hint, naming the setting that evicted the output: the contract's text for the
 * ring buffer (`spool: off`, or a stream whose spool failed), and the spool's caps otherwise.
 */
export function evictedHint(
  cause:
    | "max_buffer_bytes"
    | "max_spool_bytes"
    | "max_spool_total_bytes"
    | "free_space"
    | undefined,
): string {
  const dropped = "Older execution output was dropped before this read and cannot be recovered";
  switch (cause) {
    case "max_spool_bytes":
      return `${dropped}; this stream outgrew YIELDSHELL_MAX_SPOOL_BYTES (max_spool_bytes), raise it to keep more.`;
    case "max_spool_total_bytes":
      return `${dropped}; the server's spool reached YIELDSHELL_MAX_SPOOL_TOTAL_BYTES (max_spool_total_bytes) and dropped its oldest files, raise it or clean up finished executions.`;
    case "free_space":
      return `${dropped}; the disk holding the spool was nearly full and its oldest files were dropped, free space there or set YIELDSHELL_SPOOL_DIR (spool_dir) to a larger disk.`;
    default:
      return EVICTED_HINT;
  }
}

/** The resume-path capped hint of the contract. */
export function cappedHint(nextSeq: number, id: string): string {
  return `More output is available; read again to continue, or pass since_seq=${nextSeq} explicitly (execution_id=${
    pythonRepr(id)
  }).`;
}

/**
 * The capped hint for out-of-band reads, where a cursorless re-read would not
 * continue this page (the reference's defect 8.1 #5).
 */
export function outOfBandCappedHint(nextSeq: number, id: string): string {
  return `More output is available; pass since_seq=${nextSeq} to continue this read (execution_id=${
    pythonRepr(id)
  }).`;
}

/** The hint of a `truncation: "tail"` snapshot that skipped older unread output. */
export function tailTruncatedHint(cursor: number, id: string): string {
  return `Older output was skipped to show the newest bytes and is still buffered; a cursorless read or wait, or since_seq=${cursor}, returns it (execution_id=${
    pythonRepr(id)
  }).`;
}

export function unknownId(id: string): string {
  return `Unknown execution_id: ${id}`;
}

export function notRunning(status: string): string {
  return `Execution is not running (status: ${status})`;
}

export function processLimit(max: number): string {
  return `Maximum process limit (${max}) reached`;
}

/** A session that holds its share of the process limit (HTTP: no session may starve another). */
export function sessionProcessLimit(max: number): string {
  return `Session process limit (${max}) reached: this session already has ${max} live ` +
    "executions; wait for one to end or stop one (max_processes_per_session)";
}

export function tailNotPositive(tailLines: number): string {
  return `tail_lines must be positive, got ${tailLines}`;
}

export function invalidSignal(raw: string): string {
  return `Invalid signal: ${
    pythonRepr(raw)
  }; pass a signal name such as SIGTERM, SIGINT or SIGKILL`;
}

export function invalidStreams(raw: string): string {
  return `Invalid streams: ${pythonRepr(raw)}; pass "both", "stdout" or "stderr"`;
}

export function invalidEnvEntry(name: string): string {
  return `Invalid env entry ${
    pythonRepr(name)
  }: names must be non-empty without '=' or NUL, values without NUL`;
}

export function stdinTimedOut(timeoutMs: number): string {
  return `Timed out waiting for process stdin to accept input after ${timeoutMs}ms`;
}

export function policyNotLoaded(reason: string): string {
  return `The command policy could not be loaded: ${reason}`;
}

/** The `message` of a progress notification while a call blocks. */
export function progressMessage(bytes: number, lastLine: string): string {
  return `${bytes} bytes of output so far${lastLine === "" ? "" : `; last line: ${lastLine}`}`;
}

/** `execute` with `until` but no yield window: nothing could ever be watched. */
export const UNTIL_WITHOUT_YIELD =
  "until needs a yield window; pass yield_ms above 0, or drop until and wait with until later";
