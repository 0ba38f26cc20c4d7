import { redactText, type Secret } from "../policy/redaction.ts";
import { pythonRepr } from "../policy/signals.ts";
import * as text from "./contract.ts";
import type { Payload } from "./contract.ts";
import type { Execution } from "./execution.ts";
import type { OutputPage, StreamSelection } from "./output_log.ts";

/** What a read, wait or execute asks of the output. */
export interface PageRequest {
  sinceSeq: number | null;
  tailLines: number | null;
  streams: StreamSelection;
  maxOutputBytes: number | null | undefined;
  truncation: "head" | "tail";
}

/** Server-wide settings of a page. */
export interface PageOptions {
  /** `YIELDSHELL_MAX_OUTPUT_BYTES`: the default and largest page. */
  capBytes: number;
  /** Values redacted again at response time (empty when redaction is off). */
  secrets: readonly Secret[];
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
): Payload {
  const cap = options.capBytes;
  const requested = request.maxOutputBytes;
  const maxBytes = requested === null || requested === undefined || requested <= 0
    ? cap
    : Math.min(requested, cap);
  const { log } = execution;
  const quotedId = pythonRepr(execution.id);
  const resume = request.sinceSeq === null && request.tailLines === null &&
    request.streams === "both";
  let page: OutputPage;
  let hint: string | null = null;
  if (resume && request.truncation === "tail") {
    const cursor = execution.resumeCursor;
    const start = Math.max(cursor, log.newestStart({ maxBytes }));
    page = log.read({ startSeq: start, maxBytes });
    page.evicted = page.evicted || log.read({ startSeq: cursor, maxBytes: 0 }).evicted;
    if (start > cursor) {
      page.capped = true;
      hint = text.tailTruncatedHint(cursor, quotedId);
    }
  } else if (request.tailLines !== null) {
    const start = log.tailStart({
      lines: request.tailLines,
      maxBytes,
      streams: request.streams,
    });
    page = log.read({ startSeq: start, maxBytes, streams: request.streams });
  } else {
    const start = resume ? execution.resumeCursor : request.sinceSeq ?? 1;
    page = log.read({ startSeq: start, maxBytes, streams: request.streams });
    if (resume) execution.resumeCursor = Math.max(execution.resumeCursor, page.nextSeq);
    if (page.capped) {
      hint = resume
        ? text.cappedHint(page.nextSeq, quotedId)
        : text.outOfBandCappedHint(page.nextSeq, quotedId);
    }
  }
  const { secrets } = options;
  const evicted = page.evicted ? [text.evictedHint(page.evictedBy), log.spoolProblem] : [];
  const hints = [hint, ...evicted].filter((h) => h !== null);
  const payload: Payload = {
    stdout: secrets.length > 0 ? redactText(page.stdout, secrets) : page.stdout,
    stderr: secrets.length > 0 ? redactText(page.stderr, secrets) : page.stderr,
    start_seq: page.startSeq,
    next_seq: page.nextSeq,
    latest_seq: log.latestSeq,
    capped: page.capped,
    evicted: page.evicted,
  };
  if (hints.length > 0) payload.hint = hints.join(" ");
  return payload;
}
