import { z } from "zod";
import {
  MAX_IDLE_MS,
  MAX_PATTERN_LENGTH,
  MAX_PORT,
  RESULT_NAMES,
  unknownConditionError,
} from "../core/conditions.ts";

const streams = z.enum(["both", "stdout", "stderr"]);

/**
 * `until` of `wait` and `execute`: one flat object, each field one condition or a refinement of
 * one, so the JSON Schema stays small (no unions). The core re-checks everything (`parseUntil`).
 */
export const UntilSchema = z.strictObject({
  output: z.string().min(1).max(MAX_PATTERN_LENGTH).optional().describe(
    'JavaScript regex matched against the output, multiline (^ and $ at line ends), e.g. "listening on port \\\\d+"',
  ),
  streams: streams.optional().describe("Streams output and bytes watch (default both)"),
  scope: z.enum(["new", "all"]).optional().describe(
    'For output: "new" (default) is output not yet returned to you; "all" is all retained output',
  ),
  ignore_case: z.boolean().optional().describe("For output: match case-insensitively"),
  idle_ms: z.number().int().min(1, { error: "until.idle_ms must be at least 1" }).max(MAX_IDLE_MS)
    .optional().describe("The output has been quiet this long, e.g. a program waiting at a prompt"),
  port: z.number().int().min(1, { error: "until.port must be 1 to 65535" }).max(MAX_PORT, {
    error: "until.port must be 1 to 65535",
  }).optional().describe(
    "A TCP connection to this loopback port succeeds, e.g. a dev server is up",
  ),
  host: z.string().max(64).optional().describe(
    'For port: "localhost" (default, 127.0.0.1 or ::1), "127.0.0.1" or "::1"',
  ),
  bytes: z.number().int().min(1, { error: "until.bytes must be at least 1" }).optional()
    .describe("This many new bytes arrived"),
}, {
  error: (issue) =>
    issue.code === "unrecognized_keys" ? unknownConditionError(issue.keys) : undefined,
}).optional().describe(
  "End early when any of these holds; exit always ends it too. Omit to wait for exit only",
);

/** `wait_result` with the conditions' values (the contract's two stay as they are). */
export const WaitResultSchema = z.enum([
  RESULT_NAMES.exit,
  "deadline_reached",
  RESULT_NAMES.output,
  RESULT_NAMES.idle,
  RESULT_NAMES.port,
  RESULT_NAMES.bytes,
]).describe(
  "exited: no live work remains; deadline_reached: the budget ran out; otherwise the until condition that held",
);

/** What an `output_matched` result adds. */
export const MatchSchema = z.object({
  stream: z.enum(["stdout", "stderr"]),
  text: z.string().describe("The matched text"),
  seq: z.number().int().describe("Position of its first byte"),
}).describe("The output match; the returned page ends with the matched line");
