import type { z } from "zod";
import { type Config, SETTINGS } from "./schema.ts";
import type { Zod } from "./setting.ts";

/** A configuration problem that stops startup; the message is the whole report. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The outcome of checking one value of one setting. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Where a value came from, for messages: `--port`, `YIELDSHELL_PORT`, `port in config file x`. */
export interface ValueSource {
  /** Names the flag, variable or key, given the path of the failure inside the value. */
  label: (path: readonly PropertyKey[]) => string;
  /** What the person wrote, shown when the whole value is wrong. */
  received: unknown;
}

/** Shows a received value: JSON, so strings are quoted and lists look like lists. */
export function show(value: unknown): string {
  if (value === undefined) return "nothing";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Follows `path` into `value`, or returns undefined. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/** Names a place inside a setting: `blacklist[2]`, `non_interactive_env.CI`. */
export function describePath(name: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, part) => typeof part === "number" ? `${text}[${part}]` : `${text}.${String(part)}`,
    name,
  );
}

/** The sentence for one failed check. */
export function describeIssue(
  issue: z.core.$ZodIssue,
  candidate: unknown,
  source: ValueSource,
  expected: string,
): string {
  const label = source.label(issue.path);
  if (issue.code === "custom" && issue.params?.sentence === true) {
    return `${label} ${issue.message}`;
  }
  const received = issue.code === "invalid_key"
    ? issue.path.at(-1)
    : issue.path.length === 0
    ? source.received
    : valueAt(candidate, issue.path);
  return `Invalid ${label}: received ${show(received)}; expected ${expected}`;
}

/** Checks a candidate value of one setting against its schema (built with `zod`). */
export function checkSetting<K extends keyof Config>(
  key: K,
  candidate: unknown,
  source: ValueSource & { zod: Zod | undefined },
): Checked<Config[K]> {
  const setting = SETTINGS[key];
  const result = setting.schema(requireZod(source.zod)).safeParse(candidate);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    error: describeIssue(result.error.issues[0], candidate, source, setting.expected),
  };
}

/** The zod namespace, which main.ts loads whenever a value is to be checked. */
export function requireZod(zod: Zod | undefined): Zod {
  if (zod === undefined) throw new Error("Cannot check a setting as zod was not loaded");
  return zod;
}
