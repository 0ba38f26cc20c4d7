import type { ExecuteArgs } from "../contract/arguments.ts";
import * as text from "../contract/texts.ts";
import type { StreamSelection } from "./output_log.ts";

/**
 * Why `execute`'s arguments cannot reach a process at all (NUL bytes, which no argv or
 * environment can carry; `=` in a variable name), or null. Checked before the policy.
 */
export function checkStartArgs(args: ExecuteArgs): string | null {
  const badEnv = Object.entries(args.env ?? {}).find(([key, value]) =>
    key === "" || key.includes("=") || key.includes("\0") || value.includes("\0")
  );
  if (badEnv !== undefined) return text.invalidEnvEntry(badEnv[0]);
  if (args.command.includes("\0")) return text.COMMAND_HAS_NUL;
  return null;
}

/** Why `since_seq` and `tail_lines` cannot go together as given, or null. */
export function checkCursorArgs(
  sinceSeq: number | null | undefined,
  tailLines: number | null | undefined,
): string | null {
  const hasTail = tailLines !== null && tailLines !== undefined;
  if (hasTail && sinceSeq !== null && sinceSeq !== undefined) return text.TAIL_EXCLUSIVE;
  if (hasTail && tailLines <= 0) return text.tailNotPositive(tailLines);
  return null;
}

/** `read`'s `streams`, or null when it names none of them. */
export function parseStreams(raw: string | undefined): StreamSelection | null {
  const streams = raw ?? "both";
  return streams === "both" || streams === "stdout" || streams === "stderr" ? streams : null;
}

/** `value` limited to `min..max`. */
export function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, max));
}

/** One answer's byte budget: `max_output_bytes` within `capBytes` (the cap when unset or ≤ 0). */
export function outputBudget(requested: number | null | undefined, capBytes: number): number {
  return requested === null || requested === undefined || requested <= 0
    ? capBytes
    : Math.min(requested, capBytes);
}
