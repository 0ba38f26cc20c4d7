import { z } from "zod";
import { MAX_PORT, RESULT_NAMES, unknownConditionError } from "../core/conditions.ts";

const streams = z.enum(["both", "stdout", "stderr"]);
const PORT_RANGE = "until.port must be 1 to 65535";

/**
 * `until` of `wait` and `execute`: one flat object, each field one condition or a refinement of
 * one, so the JSON Schema stays small (no unions). The core re-checks everything (`parseUntil`).
 */
export const UntilSchema = z.strictObject({
  output: z.string().describe('JS regex on the output, multiline, e.g. "listening on \\\\d+"'),
  streams: streams.describe("For output and bytes (default both)"),
  scope: z.enum(["new", "all"]).describe("For output: new (default: not yet returned) or all"),
  ignore_case: z.boolean().describe("For output: ignore case"),
  idle_ms: z.number().int().min(1, { error: "until.idle_ms must be at least 1" })
    .describe("Output quiet this long, e.g. at a prompt"),
  port: z.number().int().min(1, { error: PORT_RANGE }).max(MAX_PORT, { error: PORT_RANGE })
    .describe("A loopback TCP port accepts"),
  host: z.string().describe("For port: localhost (default), 127.0.0.1 or ::1"),
  bytes: z.number().int().min(1, { error: "until.bytes must be at least 1" }).describe(
    "New bytes arrived",
  ),
}, {
  error: (issue) =>
    issue.code === "unrecognized_keys" ? unknownConditionError(issue.keys) : undefined,
}).partial().optional().describe("End early when one holds; exit always ends it");

/** `wait_result` with the conditions' values (the contract's two stay as they are). */
export const WaitResultSchema = z.enum([
  RESULT_NAMES.exit,
  "deadline_reached",
  RESULT_NAMES.output,
  RESULT_NAMES.idle,
  RESULT_NAMES.port,
  RESULT_NAMES.bytes,
]).describe(
  "exited, deadline_reached, or the until condition that held",
);

/** `execute`'s `until_result`: the condition that ended the yield window early. */
export const UntilResultSchema = z.enum([
  RESULT_NAMES.output,
  RESULT_NAMES.idle,
  RESULT_NAMES.port,
  RESULT_NAMES.bytes,
]).describe("The until condition that held");

/** What an `output_matched` result adds. */
export const MatchSchema = z.object({
  stream: z.enum(["stdout", "stderr"]),
  text: z.string(),
  seq: z.number().int(),
}).describe("The matched text, its stream and seq; the page ends with its line");
