import { z } from "zod";

/** Fields shared by responses that carry output. */
export const cursorFields = {
  stdout: z.string().optional().describe("Output text of stdout in the returned range"),
  stderr: z.string().optional().describe("Output text of stderr in the returned range"),
  start_seq: z.number().int().optional().describe("Position of the first byte returned"),
  next_seq: z.number().int().optional().describe("Cursor to pass as since_seq to continue"),
  latest_seq: z.number().int().optional().describe(
    "One past the newest captured byte; greater than next_seq means more is waiting",
  ),
  capped: z.boolean().optional().describe(
    "The response cap stopped the read; the rest is still buffered",
  ),
  evicted: z.boolean().optional().describe(
    "Part of the requested range fell out of the ring buffer and is gone",
  ),
  hint: z.string().optional().describe("The concrete follow-up call when capped or evicted"),
  stdin_error: z.string().optional().describe("Why initial stdin delivery failed"),
};

export const executionId = z.string().max(256).describe(
  "Opaque execution handle returned by execute; pass it through unchanged (not the numeric process_id)",
);

export const status = z.enum([
  "running",
  "completed",
  "backgrounded",
  "stopped",
  "timed_out",
  "failed",
  "failed_to_start",
]);

export const exitFields = {
  exit_code: z.number().int().nullable().optional().describe(
    "Shell exit code; a negative number -N when it died from signal N",
  ),
  signal: z.string().nullable().optional().describe("Signal that ended the shell, if any"),
};

export const maxOutputBytes = z.number().int().nullable().optional().describe(
  "Maximum bytes returned across stdout and stderr in this response (clamped to the server cap)",
);

export const sinceSeq = z.number().int().nullable().optional().describe(
  "Byte cursor from a previous next_seq; out-of-band (does not move the server-side cursor). Pass 1 to re-read from the beginning",
);

export const tailLines = z.number().int().nullable().optional().describe(
  "Return only the newest N lines (out-of-band); mutually exclusive with since_seq",
);

export const truncation = z.enum(["head", "tail"]).nullable().optional().describe(
  'Which end of oversized output to return: "head" (default) advances the cursor through the oldest unread bytes; "tail" shows the newest bytes without moving the cursor',
);
