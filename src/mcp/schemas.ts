import { z } from "zod";

/** Decimal digits, optionally negative: the text of an integer and nothing else. */
const INTEGER_TEXT = /^-?\d+$/;

function integerError(issue: { input?: unknown }): string {
  return `Expected an integer (digits in a string such as "3000" are accepted too); received ${
    JSON.stringify(issue.input) ?? String(issue.input)
  }`;
}

/**
 * An integer argument. Its decimal text ("3000") is accepted too, because MCP Inspector's CLI
 * sends every argument as a string; "3.5", "abc" and " 3" are not integers and are refused. The
 * JSON Schema still says `integer`: the conversion happens before the check. Give its default
 * with `.prefault()`: zod leaves the `.default()` of a converting schema out of the JSON Schema.
 */
export function integer() {
  return z.preprocess(
    (value) => typeof value === "string" && INTEGER_TEXT.test(value) ? Number(value) : value,
    z.number({ error: integerError }).int({ error: integerError }),
  );
}

/**
 * The strict schema of a tool's arguments, typed by the core's argument interface: a key that
 * is missing, extra or of an incompatible type fails `deno check`, so the two cannot drift apart.
 */
export function argumentsSchema<Args>(shape: { [K in keyof Args]-?: z.ZodType<Args[K]> }) {
  return z.strictObject(shape);
}

/** Fields shared by responses that carry output. */
export const cursorFields = {
  stdout: z.string().optional().describe("stdout text in the returned range"),
  stderr: z.string().optional().describe("stderr text in the returned range"),
  start_seq: z.number().int().optional().describe("Position of the first byte returned"),
  next_seq: z.number().int().optional().describe("Pass as since_seq to continue"),
  latest_seq: z.number().int().optional().describe(
    "One past the newest byte; above next_seq means more is waiting",
  ),
  capped: z.boolean().optional().describe("The size cap stopped the read; the rest is buffered"),
  evicted: z.boolean().optional().describe("Part of the range left the ring buffer and is gone"),
  hint: z.string().optional().describe("The call that continues when capped or evicted"),
  stdin_error: z.string().optional().describe("Why initial stdin delivery failed"),
};

/** What results say about the OS sandbox (absent when it is off). */
const sandboxFields = {
  sandbox: z.string().optional().describe("OS sandbox profile the command runs under"),
  sandbox_hint: z.string().optional().describe(
    "The failure is the sandbox's: the side effect to declare",
  ),
};

/**
 * `schema` with the sandbox's result fields when the sandbox is on; without them otherwise, so
 * that tools/list costs nothing extra where no result carries them.
 */
export function withSandboxFields<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  sandbox: string | undefined,
) {
  return sandbox === undefined || sandbox === "off" ? schema : schema.extend(sandboxFields);
}

/** The default view's tails (execute and wait): each stream's newest bytes, out of band. */
export const tailFields = {
  stdout_tail: z.string().optional().describe("Newest stdout, when cut"),
  stdout_tail_seq: z.number().int().optional(),
  stderr_tail: z.string().optional().describe("Newest stderr, when cut"),
  stderr_tail_seq: z.number().int().optional(),
};

export const executionId = z.string().max(256).describe(
  "Opaque handle from execute; pass it unchanged (not process_id)",
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
    "Shell exit code; -N when signal N killed it",
  ),
  signal: z.string().nullable().optional().describe("Signal that ended the shell"),
};

/** `max_output_bytes`, defaulting to and clamped at the operator's response cap. */
export function maxOutputBytes(capBytes: number) {
  return integer().nullable().prefault(capBytes).describe(
    `Most bytes of stdout+stderr returned, clamped to ${capBytes}`,
  );
}

export const sinceSeq = integer().nullable().optional().describe(
  "Read from this cursor (a next_seq) without moving the server cursor; 1 = from the start",
);

export const tailLines = integer().nullable().optional().describe(
  "Only the newest N lines, without moving the server cursor; not with since_seq",
);

/**
 * `truncation`, defaulting to the operator's configured direction. The default is stated, not
 * applied: a call that leaves it out gets the default view, which with the spool adds the
 * newest bytes of each stream (`stdout_tail`, `stderr_tail`) to a head page that is capped.
 */
export function truncation(direction: "head" | "tail") {
  return z.enum(["head", "tail"]).nullable().optional().meta({ default: direction }).describe(
    '"head": oldest unread bytes, moves the cursor; "tail": newest bytes, cursor stays; omitted: head plus *_tail',
  );
}
