import type { PsArgs } from "../contract/arguments.ts";
import type {
  ExecuteResult,
  PageFields,
  PsEntry,
  PsResult,
  ReadResult,
  WaitResult,
} from "../contract/results.ts";
import * as text from "../contract/texts.ts";
import type { Execution } from "./execution.ts";
import type { StreamSelection } from "./output_log.ts";
import { sandboxFields } from "./sandbox_fields.ts";
import { matchFields, type UntilHit, untilResult } from "./until.ts";

/** Milliseconds as the contract reports them: one decimal. */
export function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * A page of a record that retention removed before the response: what was cut off can no
 * longer be read, so `capped` becomes `evicted` with the contract's hint.
 */
export function markReaped(page: PageFields): void {
  if (!page.capped) return;
  page.capped = false;
  page.evicted = true;
  page.hint = text.REAPED_HINT;
}

/** `execute`'s answer once the yield window closed; `retained` when the record still exists. */
export function executeResult(
  execution: Execution,
  page: PageFields,
  retained: boolean,
  hit: UntilHit | null = null,
): ExecuteResult {
  const status = execution.live && execution.status === "running"
    ? "backgrounded"
    : execution.status;
  const held = hit !== null && hit.kind !== "failed" && status === "backgrounded";
  const stdinError = execution.stdin.error;
  // Spreads keep the contract's key order: status, id, pid, exit, duration, page, message.
  return {
    status,
    ...(retained ? { execution_id: execution.id, process_id: execution.pid } : {}),
    ...(status === "backgrounded"
      ? {}
      : { exit_code: execution.exitCode, signal: execution.signal }),
    duration_ms: roundMs(execution.durationMs),
    ...page,
    ...(held ? untilFields(hit, "until_result") : {}),
    ...(status === "backgrounded" ? { message: text.BACKGROUNDED_MESSAGE } : {}),
    ...(stdinError === null ? {} : { stdin_error: stdinError }),
    ...sandboxFields(execution),
  };
}

/** `read`'s answer: a narrowed read leaves the other stream out. */
export function readResult(
  execution: Execution,
  page: PageFields,
  streams: StreamSelection,
): ReadResult {
  const { stdout, stderr, ...cursor } = page;
  const result: ReadResult = {
    execution_id: execution.id,
    status: execution.status,
    exit_code: execution.exitCode,
    signal: execution.signal,
    ...cursor,
  };
  if (streams !== "stderr") result.stdout = stdout;
  if (streams !== "stdout") result.stderr = stderr;
  if (execution.stdin.error !== null) result.stdin_error = execution.stdin.error;
  return { ...result, ...sandboxFields(execution) };
}

/** How a wait went: its budget after capping and the time it took. */
export interface Waited {
  maxWaitMs: number;
  waitedMs: number;
}

/** `wait`'s answer. */
export function waitResult(
  execution: Execution,
  page: PageFields,
  waited: Waited,
  hit: UntilHit | null = null,
): WaitResult {
  const held = hit !== null && hit.kind !== "failed";
  const result: WaitResult = {
    execution_id: execution.id,
    status: execution.status,
    exit_code: execution.exitCode,
    signal: execution.signal,
    wait_result: execution.live ? "deadline_reached" : "exited",
    ...(held ? untilFields(hit, "wait_result") : {}),
    waited_ms: roundMs(waited.waitedMs),
    max_wait_ms: waited.maxWaitMs,
    ...page,
  };
  if (execution.stdin.error !== null) result.stdin_error = execution.stdin.error;
  return { ...result, ...sandboxFields(execution) };
}

/** The result name of a condition that held under `key`, and the match of an output hit. */
function untilFields<K extends string>(hit: UntilHit, key: K) {
  const match = matchFields(hit);
  const name = hit.kind === "failed" ? null : untilResult(hit);
  return { ...(name === null ? {} : { [key]: name }), ...(match === null ? {} : { match }) };
}

/** One `ps` row, `nowS` in epoch seconds; name and command redacted as the output is. */
export function psEntry(execution: Execution, nowS: number): PsEntry {
  const { redaction, lastOutputAt } = execution;
  return {
    execution_id: execution.id,
    process_id: execution.pid,
    name: execution.name === null ? null : redaction.text(execution.name),
    command: redaction.text(execution.command),
    cwd: execution.cwd,
    status: execution.status,
    exit_code: execution.exitCode,
    signal: execution.signal,
    started_at: execution.startedAt,
    ended_at: execution.live ? null : execution.endedAt,
    duration_ms: roundMs(execution.durationMs),
    stdout_bytes: execution.log.bytesCaptured("stdout"),
    stderr_bytes: execution.log.bytesCaptured("stderr"),
    last_output_at: lastOutputAt,
    idle_ms: lastOutputAt === null ? null : roundMs(Math.max(0, (nowS - lastOutputAt) * 1000)),
    latest_seq: execution.log.latestSeq,
    stdin_error: execution.stdin.error,
    ...sandboxFields(execution, false),
  };
}

/** `ps` of one session's records (oldest first): newest first, running only on request. */
export function psResult(records: Execution[], args: PsArgs, nowS: number): PsResult {
  const includeCompleted = args.include_completed ?? true;
  const limit = Math.max(0, args.limit ?? 50);
  const listed = records.reverse().filter((execution) =>
    includeCompleted || execution.status === "running"
  );
  return { executions: listed.slice(0, limit).map((execution) => psEntry(execution, nowS)) };
}
