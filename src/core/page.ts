import type { Truncation } from "../contract/arguments.ts";
import type { PageFields } from "../contract/results.ts";
import * as text from "../contract/texts.ts";
import { outputBudget } from "./call_checks.ts";
import type { Execution } from "./execution.ts";
import type { OutputPage, StreamSelection } from "./output_log.ts";
import { type Tails, takeTails } from "./page_tails.ts";
import type { Redaction } from "./redaction.ts";

/** What a read, wait or execute asks of the output. */
export interface PageRequest {
  sinceSeq: number | null;
  tailLines: number | null;
  streams: StreamSelection;
  maxOutputBytes: number | null | undefined;
  truncation: Truncation;
  /** The default view: a capped head page of a finished execution also shows tails. */
  tails?: boolean;
}

/** Server-wide settings of a page. */
export interface PageOptions {
  /** `YIELDSHELL_MAX_OUTPUT_BYTES`: the default and largest page. */
  capBytes: number;
  /** Secrets redacted again at response time (the server's environment). */
  redaction: Redaction;
}

/**
 * The view of an `execute` or `wait` page: the call's truncation, else the configured one; a
 * call that leaves it out gets the default view, which with the spool adds tails to a capped
 * head page of a finished execution.
 */
export function viewOf(
  truncation: Truncation | null | undefined,
  options: { limits: { truncation: Truncation }; spool?: unknown },
): Pick<PageRequest, "truncation" | "tails"> {
  const tails = truncation == null && options.spool != null;
  return { truncation: truncation ?? options.limits.truncation, tails };
}

/** A page taken from the log, and the hint it needs, if any. */
interface Taken {
  page: OutputPage;
  hint: string | null;
}

/**
 * One response page of an execution's output under the contract's cursor rules: the resume
 * path (both streams, no cursor, no tail) starts at and advances the server-side cursor; every
 * other request is out-of-band. `truncation: "tail"` shows the newest bytes without moving it.
 */
export function readPage(
  execution: Execution,
  request: PageRequest,
  options: PageOptions,
): PageFields {
  const maxBytes = outputBudget(request.maxOutputBytes, options.capBytes);
  const resume = request.sinceSeq === null && request.tailLines === null &&
    request.streams === "both";
  const withTails = resume && request.truncation === "head" && request.tails === true &&
    !execution.live && execution.log.read({ startSeq: execution.resumeCursor, maxBytes }).capped;
  const { page, hint } = take(execution, request, { maxBytes, resume, withTails });
  const { redaction } = options;
  const evicted = page.evicted
    ? [text.evictedHint(page.evictedBy), execution.log.spoolProblem]
    : [];
  const hints = [hint, ...evicted].filter((h) => h !== null);
  const fields: PageFields = {
    stdout: redaction.text(page.stdout),
    stderr: redaction.text(page.stderr),
    start_seq: page.startSeq,
    next_seq: page.nextSeq,
    latest_seq: execution.log.latestSeq,
    capped: page.capped,
    evicted: page.evicted,
  };
  if (withTails) addTails(fields, execution, options.redaction, maxBytes);
  if (hints.length > 0) fields.hint = [...hints, ...tailHint(fields)].join(" ");
  return fields;
}

/** The page a request asks for: the newest bytes, the last lines, or the bytes from a position. */
function take(
  execution: Execution,
  request: PageRequest,
  plan: { maxBytes: number; resume: boolean; withTails: boolean },
): Taken {
  const { maxBytes, resume, withTails } = plan;
  if (resume && request.truncation === "tail") return takeNewest(execution, maxBytes);
  if (request.tailLines !== null) {
    return takeTail(execution, request.tailLines, request.streams, maxBytes);
  }
  const from = resume ? null : request.sinceSeq ?? 1;
  return takeFrom(execution, from, request.streams, withTails ? Math.ceil(maxBytes / 2) : maxBytes);
}

/**
 * Shares the response budget: the contiguous part took half, the tails get what it left, so
 * `stdout` + `stderr` + the tails stay within `maxBytes`.
 */
function addTails(
  fields: PageFields,
  execution: Execution,
  redaction: Redaction,
  maxBytes: number,
): void {
  const used = new TextEncoder().encode(fields.stdout + fields.stderr).length;
  const tails: Tails = takeTails(execution.log, fields.next_seq, Math.max(0, maxBytes - used));
  if (tails.stdout_tail !== undefined) tails.stdout_tail = redaction.text(tails.stdout_tail);
  if (tails.stderr_tail !== undefined) tails.stderr_tail = redaction.text(tails.stderr_tail);
  Object.assign(fields, tails);
}

function tailHint(fields: PageFields): string[] {
  if (fields.stdout_tail_seq === undefined && fields.stderr_tail_seq === undefined) return [];
  return [text.TAILS_HINT];
}

/** The newest bytes after the resume cursor, which stays where it is. */
function takeNewest(execution: Execution, maxBytes: number): Taken {
  const { log } = execution;
  const cursor = execution.resumeCursor;
  const start = Math.max(cursor, log.newestStart({ maxBytes }));
  const page = log.read({ startSeq: start, maxBytes });
  page.evicted = page.evicted || log.read({ startSeq: cursor, maxBytes: 0 }).evicted;
  if (start <= cursor) return { page, hint: null };
  page.capped = true;
  return { page, hint: text.tailTruncatedHint(cursor, execution.id) };
}

/** The newest `lines` lines of the selected streams (out-of-band). */
function takeTail(
  execution: Execution,
  lines: number,
  streams: StreamSelection,
  maxBytes: number,
): Taken {
  const start = execution.log.tailStart({ lines, maxBytes, streams });
  return { page: execution.log.read({ startSeq: start, maxBytes, streams }), hint: null };
}

/** From `sinceSeq` (out-of-band), or, when null, from the resume cursor, which advances. */
function takeFrom(
  execution: Execution,
  sinceSeq: number | null,
  streams: StreamSelection,
  maxBytes: number,
): Taken {
  const startSeq = sinceSeq ?? execution.resumeCursor;
  const page = execution.log.read({ startSeq, maxBytes, streams });
  if (sinceSeq === null) execution.advanceResumeCursor(page.nextSeq);
  if (!page.capped) return { page, hint: null };
  const hint = sinceSeq === null
    ? text.cappedHint(page.nextSeq, execution.id)
    : text.outOfBandCappedHint(page.nextSeq, execution.id);
  return { page, hint };
}
