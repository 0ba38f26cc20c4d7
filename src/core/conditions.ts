import type { UntilArgs } from "../contract/arguments.ts";
import type { StreamSelection } from "./output_log.ts";

/** An output regular expression, compiled once and checked. */
export interface OutputCondition {
  /** The pattern as the caller wrote it. */
  source: string;
  /** Flags every match runs with: `m` and `u`, plus `i` for `ignore_case`. */
  flags: string;
  /** `new`: output after the caller's cursor; `all`: all retained output. */
  scope: "new" | "all";
}

/** A loopback port and the addresses probed for it. */
export interface PortCondition {
  port: number;
  /** `localhost` probes both; a server answering on either holds. */
  hosts: readonly LoopbackAddress[];
}

export type LoopbackAddress = "127.0.0.1" | "::1";

/** Parsed `until`: exit always ends a wait; each non-null field is one more condition. */
export interface Conditions {
  output: OutputCondition | null;
  /** Streams `output` and `bytes` watch. */
  streams: StreamSelection;
  idleMs: number | null;
  port: PortCondition | null;
  bytes: number | null;
}

export type ConditionsDecision = { ok: true; conditions: Conditions } | {
  ok: false;
  error: string;
};

/** Longest accepted output pattern, in UTF-16 code units. */
export const MAX_PATTERN_LENGTH = 4096;
/** Longest accepted `idle_ms`: one day (timers are exact far beyond it). */
export const MAX_IDLE_MS = 86_400_000;
export const MAX_PORT = 65_535;

/** Only exit ends the wait: what an absent `until` means. */
export const EXIT_ONLY: Conditions = {
  output: null,
  streams: "both",
  idleMs: null,
  port: null,
  bytes: null,
};

const KNOWN_KEYS = new Set([
  "output",
  "streams",
  "scope",
  "ignore_case",
  "idle_ms",
  "port",
  "host",
  "bytes",
]);

const HOSTS: Record<string, readonly LoopbackAddress[]> = {
  "127.0.0.1": ["127.0.0.1"],
  "::1": ["::1"],
  "[::1]": ["::1"],
  localhost: ["127.0.0.1", "::1"],
};

const given = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

/**
 * Checks and compiles `until` before anything waits; never throws. Every error names the field,
 * why it cannot work and what would.
 */
export function parseUntil(raw: unknown): ConditionsDecision {
  if (raw === null || raw === undefined) return { ok: true, conditions: EXIT_ONLY };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return fail(
      'until must be an object such as {"output": "listening"}; omit it to wait for exit',
    );
  }
  const unknown = Object.keys(raw).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0) return fail(unknownConditionError(unknown));
  const args = raw as UntilArgs;
  return firstError([
    () => refinerError(args),
    () => streamsError(args.streams),
    () => scopeError(args.scope),
    () => integerError("idle_ms", args.idle_ms, 1, MAX_IDLE_MS, "the quiet time in milliseconds"),
    () => integerError("bytes", args.bytes, 1, Number.MAX_SAFE_INTEGER, "a byte count"),
    () => integerError("port", args.port, 1, MAX_PORT, "the port the server listens on"),
    () => hostError(args),
  ]) ?? compile(args);
}

/** The `wait_result` (and execute `until_result`) value of each condition that held. */
export const RESULT_NAMES = {
  exit: "exited",
  output: "output_matched",
  bytes: "bytes_reached",
  idle: "idle",
  port: "port_open",
} as const;

export function unknownConditionError(keys: readonly string[]): string {
  const named = keys.map((key) => `'${key}'`).join(", ");
  return `Unknown until condition ${named}; pass output, idle_ms, port or bytes (refined by streams, scope, ignore_case and host)`;
}

function compile(args: UntilArgs): ConditionsDecision {
  let output: OutputCondition | null = null;
  if (given(args.output)) {
    const checked = checkPattern(args.output, args.ignore_case === true);
    if (typeof checked === "string") return fail(checked);
    output = {
      source: args.output,
      flags: checked.flags,
      scope: args.scope === "all" ? "all" : "new",
    };
  }
  const port = given(args.port)
    ? { port: args.port, hosts: HOSTS[args.host ?? "localhost"] }
    : null;
  return {
    ok: true,
    conditions: {
      output,
      streams: (args.streams ?? "both") as StreamSelection,
      idleMs: args.idle_ms ?? null,
      port,
      bytes: args.bytes ?? null,
    },
  };
}

/** Compiles `source` with the flags matches use, or says why it cannot be used. */
function checkPattern(source: unknown, ignoreCase: boolean): { flags: string } | string {
  if (typeof source !== "string") {
    return "until.output must be a string holding a regular expression";
  }
  if (source.length > MAX_PATTERN_LENGTH) {
    return `Cannot wait until output as the regex has ${source.length} characters; keep it under ${MAX_PATTERN_LENGTH}`;
  }
  const flags = ignoreCase ? "imu" : "mu";
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `Cannot wait until output as the regex is invalid (${reason}); pass a JavaScript regular expression such as "listening on port \\\\d+"`;
  }
  if (regex.test("")) {
    return `Cannot wait until output as the regex ${
      JSON.stringify(source)
    } matches empty text and would hold at once; pass a pattern that needs at least one character, such as "ready"`;
  }
  return { flags };
}

/** Fields that only refine another condition are contradictory without it. */
function refinerError(args: UntilArgs): string | null {
  const hasOutput = given(args.output);
  const refiners: [string, boolean, string][] = [
    ["streams", hasOutput || given(args.bytes), "output or bytes"],
    ["scope", hasOutput, "output"],
    ["ignore_case", hasOutput, "output"],
    ["host", given(args.port), "port"],
  ];
  const key = Object.keys(args).find((name) => {
    const refiner = refiners.find(([field]) => field === name);
    return refiner !== undefined && given(args[name as keyof UntilArgs]) && !refiner[1];
  });
  if (key === undefined) return null;
  const target = refiners.find(([field]) => field === key)![2];
  return `until.${key} applies only to ${target}; add ${target} or remove ${key}`;
}

function streamsError(streams: unknown): string | null {
  if (!given(streams) || streams === "both" || streams === "stdout" || streams === "stderr") {
    return null;
  }
  return `Invalid until.streams ${JSON.stringify(streams)}; pass "both", "stdout" or "stderr"`;
}

function scopeError(scope: unknown): string | null {
  if (!given(scope) || scope === "new" || scope === "all") return null;
  return `Invalid until.scope ${
    JSON.stringify(scope)
  }; pass "new" (output you have not been shown yet) or "all" (all retained output)`;
}

function integerError(
  name: string,
  value: unknown,
  minimum: number,
  maximum: number,
  meaning: string,
): string | null {
  if (!given(value)) return null;
  if (
    typeof value === "number" && Number.isInteger(value) && value >= minimum && value <= maximum
  ) {
    return null;
  }
  return `Invalid until.${name} ${
    JSON.stringify(value)
  }; pass an integer from ${minimum} to ${maximum}: ${meaning}`;
}

function hostError(args: UntilArgs): string | null {
  const host = args.host;
  if (!given(host) || (typeof host === "string" && Object.hasOwn(HOSTS, host))) return null;
  const shown = typeof host === "string" ? host : JSON.stringify(host);
  const where = given(args.port) ? `port ${args.port} on ${shown}` : `a port on ${shown}`;
  return `Cannot wait until ${where} as only loopback addresses are probed; pass host "127.0.0.1", "::1" or "localhost" (a server bound to 0.0.0.0 also accepts on 127.0.0.1)`;
}

function firstError(checks: (() => string | null)[]): ConditionsDecision | null {
  for (const check of checks) {
    const error = check();
    if (error !== null) return fail(error);
  }
  return null;
}

function fail(error: string): ConditionsDecision {
  return { ok: false, error };
}
