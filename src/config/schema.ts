import { z } from "zod";
import { compilePattern } from "../policy/command_regex.ts";
import {
  DEFAULT_BLOCKED_SIDE_EFFECTS,
  SIDE_EFFECTS,
  type SideEffect,
} from "../policy/side_effects.ts";
import { parseInteger } from "./parse_integer.ts";

/** The resolved server configuration. */
export interface Config {
  /** Working directory for commands that pass no cwd. */
  defaultCwd: string;
  /** Roots a command's cwd must lie under; empty means unrestricted. */
  allowedCwds: string[];
  /** Default and maximum bytes of stdout plus stderr in one response. */
  maxOutputBytes: number;
  /** Bytes retained per stream of each execution. */
  maxBufferBytes: number;
  /** Most executions with live work at once. */
  maxProcesses: number;
  /** Yield window of an `execute` that passes no `yield_ms`. */
  defaultYieldMs: number;
  /** Largest accepted `yield_ms` (the contract still caps it at 55000). */
  maxYieldMs: number;
  /** Runtime limit of an `execute` that passes no `timeout_ms`; 0 is unlimited. */
  defaultTimeoutMs: number;
  /** Age after which terminal executions are reaped. */
  processRetentionMs: number;
  /** Most terminal executions kept after age-based reaping. */
  maxRetainedProcesses: number;
  /** Commands matching it are refused; null when off. */
  denyCommandRegex: RegExp | null;
  /** When set, only commands matching it may start. */
  allowCommandRegex: RegExp | null;
  /** Names of environment variables whose values are redacted; null turns redaction off. */
  redactEnvRegex: RegExp | null;
  /** `side_effects` categories that `execute` refuses. */
  blockedSideEffects: SideEffect[];
  /** How MCP clients connect. */
  transport: "stdio" | "http";
  /** Address the HTTP transport binds. */
  host: string;
  /** Port of the HTTP transport; 0 picks a free one. */
  port: number;
  /** Bearer token HTTP requests must carry; null when none is required. */
  authToken: string | null;
  /** Non-loopback origins allowed to call the HTTP transport, normalized (`scheme://host[:port]`). */
  allowedOrigins: string[];
  /** Most concurrent HTTP sessions. */
  maxHttpSessions: number;
  /** Most HTTP requests handled at once. */
  maxConcurrentRequests: number;
  /** Command names refused when no whitelist is set. */
  blacklist: string[];
  /** When non-empty, the only command names allowed. */
  whitelist: string[];
  /** Shell for calls that name none; null means the platform default. */
  shell: string | null;
  /** Interval of progress notifications during blocking calls. */
  keepaliveIntervalMs: number;
  /** Default direction of output truncation. */
  truncation: "head" | "tail";
  /** Variables set for every command; the call's `env` overrides them. */
  nonInteractiveEnv: Record<string, string>;
  /** Whether output older than the memory cache is kept on disk. */
  spool: "on" | "off";
  /** Directory holding one spool directory per server process; null: the system temp directory's. */
  spoolDir: string | null;
  /** Bytes of output kept per stream of one execution (memory and disk). */
  maxSpoolBytes: number;
  /** Bytes of spooled output on disk for the whole server. */
  maxSpoolTotalBytes: number;
}

/**
 * How the text of an environment variable or flag becomes a candidate value for the schema:
 * `text` as is, `integer` with Python `int()` syntax, `pathList` split on the platform's list
 * separator (variable) or repeated (flag), `commaList` split on commas, trimmed, empty entries
 * dropped, and repeatable, `sideEffects` like `commaList` but with the contract's rules for the
 * variable.
 */
export type TextForm = "text" | "integer" | "pathList" | "commaList" | "sideEffects";

/** One setting: where it comes from, what it means, and what values are allowed. */
export interface Setting<T> {
  /** snake_case key in the config file. */
  fileKey: string;
  /** Environment variable, if the setting has one. */
  env?: string;
  /** Long flag without its dashes, if the setting has one. */
  flag?: string;
  /** Placeholder for the value in `--help`. */
  valueName: string;
  /** How variable and flag text is read. @default {"text"} */
  form?: TextForm;
  /** Validates (and normalizes) a value from any source. */
  schema: z.ZodType<T>;
  /** What is allowed, for error messages: "a positive integer". */
  expected: string;
  /** The default; `cwd` is the directory the server starts in. */
  default: (cwd: string) => T;
  /**
   * The default in words, for a default that depends on where the server starts; such a setting
   * is left commented out in `config.example.yaml`.
   */
  defaultText?: string;
  /** One or two sentences for `--help` and `config.example.yaml`. */
  description: string;
  /**
   * The mcp-yieldshell contract: an invalid value of the variable is ignored with a warning
   * instead of failing startup.
   */
  lenientEnv?: boolean;
}

/** Every setting, keyed like `Config`. */
export type Settings = { readonly [K in keyof Config]: Setting<Config[K]> };

/**
 * The candidate value of a setting from the text of its variable (one text) or of its flag (one
 * text per use; only list forms keep more than the last). Path lists are split on
 * `pathListSeparator` when one is given, which the variable does and the repeatable flag does not.
 */
export function fromText(
  form: TextForm,
  texts: readonly string[],
  pathListSeparator?: string,
): unknown {
  const last = texts.at(-1) ?? "";
  switch (form) {
    case "text":
      return last;
    case "integer":
      return parseInteger(last) ?? last;
    case "pathList":
      return texts
        .flatMap((text) => pathListSeparator === undefined ? [text] : text.split(pathListSeparator))
        .filter((path) => path !== "");
    case "commaList":
    case "sideEffects":
      return texts.flatMap((text) => text.split(",").map((part) => part.trim()))
        .filter((part) => part !== "");
  }
}

const positiveInteger = z.int().min(1);
const nonNegativeInteger = z.int().min(0);
const path = z.string().min(1);
const pathList = z.array(path);
const nameList = z.array(z.string().trim().min(1));
const optionalText = z.string().nullable().transform((text) => text === "" ? null : text);
const pattern = z.string().nullable().transform((source, context) => {
  if (source === null || source === "") return null;
  try {
    return compilePattern(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    context.addIssue({
      code: "custom",
      message: `contains invalid regular expression '${source}': ${reason}`,
      params: { sentence: true },
    });
    return z.NEVER;
  }
});
const origin = z.string().transform((text, context) => {
  const url = URL.canParse(text) ? new URL(text) : null;
  const bare = url !== null && url.origin !== "null" && url.pathname === "/" &&
    url.search === "" && url.hash === "" && url.username === "" && url.password === "";
  if (bare) return url.origin;
  context.addIssue({ code: "custom", message: "not an origin" });
  return z.NEVER;
});

const PATTERN_EXPECTED = "a regular expression, or an empty value to turn it off";

/** The one table of settings; readers, `--help` and `config.example.yaml` are built from it. */
export const SETTINGS: Settings = {
  defaultCwd: {
    fileKey: "default_cwd",
    env: "YIELDSHELL_DEFAULT_CWD",
    flag: "default-cwd",
    valueName: "path",
    schema: path,
    expected: "a non-empty path",
    default: (cwd) => cwd,
    defaultText: "the directory yieldshell starts in",
    description:
      "Working directory for commands that pass no cwd. When allowed_cwds is set, it must lie under one of them too.",
  },
  allowedCwds: {
    fileKey: "allowed_cwds",
    env: "YIELDSHELL_ALLOWED_CWDS",
    flag: "allowed-cwd",
    valueName: "path",
    form: "pathList",
    schema: pathList,
    expected: "a list of non-empty paths",
    default: () => [],
    description:
      'Directories commands may run in, each with everything below it; empty means unrestricted. The flag repeats; the variable separates paths with ":" (";" on Windows).',
  },
  maxOutputBytes: {
    fileKey: "max_output_bytes",
    env: "YIELDSHELL_MAX_OUTPUT_BYTES",
    flag: "max-output-bytes",
    valueName: "bytes",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 20_000,
    description:
      "Default and maximum bytes of stdout plus stderr in one response. It caps responses, not what is retained.",
    lenientEnv: true,
  },
  maxBufferBytes: {
    fileKey: "max_buffer_bytes",
    env: "YIELDSHELL_MAX_BUFFER_BYTES",
    flag: "max-buffer-bytes",
    valueName: "bytes",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 262_144,
    description:
      "Bytes retained for each stream (stdout, stderr) of each execution, so cursors and tails still resolve after a gap between polls.",
    lenientEnv: true,
  },
  maxProcesses: {
    fileKey: "max_processes",
    env: "YIELDSHELL_MAX_PROCESSES",
    flag: "max-processes",
    valueName: "n",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 50,
    description:
      "Most executions with live work at once, counting finished shells whose descendants still run. Beyond it execute fails to start.",
    lenientEnv: true,
  },
  defaultYieldMs: {
    fileKey: "default_yield_ms",
    env: "YIELDSHELL_DEFAULT_YIELD_MS",
    flag: "yield-ms",
    valueName: "ms",
    form: "integer",
    schema: nonNegativeInteger,
    expected: "a non-negative integer",
    default: () => 30_000,
    description:
      "How long execute waits before it yields a running command to the background, when the call passes no yield_ms. Capped by max_yield_ms and 55000.",
    lenientEnv: true,
  },
  maxYieldMs: {
    fileKey: "max_yield_ms",
    env: "YIELDSHELL_MAX_YIELD_MS",
    flag: "max-yield-ms",
    valueName: "ms",
    form: "integer",
    schema: nonNegativeInteger,
    expected: "a non-negative integer",
    default: () => 300_000,
    description:
      "Largest yield_ms accepted; the effective maximum is the lesser of this and 55000.",
    lenientEnv: true,
  },
  defaultTimeoutMs: {
    fileKey: "default_timeout_ms",
    env: "YIELDSHELL_DEFAULT_TIMEOUT_MS",
    flag: "timeout-ms",
    valueName: "ms",
    form: "integer",
    schema: nonNegativeInteger,
    expected: "a non-negative integer",
    default: () => 3_600_000,
    description:
      "Runtime limit of an execution whose call passes no timeout_ms; 0 means no limit. It also ends background processes still in the command's process group.",
    lenientEnv: true,
  },
  processRetentionMs: {
    fileKey: "process_retention_ms",
    env: "YIELDSHELL_PROCESS_RETENTION_MS",
    flag: "process-retention-ms",
    valueName: "ms",
    form: "integer",
    schema: nonNegativeInteger,
    expected: "a non-negative integer",
    default: () => 3_600_000,
    description:
      "How long finished executions stay readable before they are reaped; 0 reaps them at the next execute.",
    lenientEnv: true,
  },
  maxRetainedProcesses: {
    fileKey: "max_retained_processes",
    env: "YIELDSHELL_MAX_RETAINED_PROCESSES",
    flag: "max-retained-processes",
    valueName: "n",
    form: "integer",
    schema: nonNegativeInteger,
    expected: "a non-negative integer",
    default: () => 100,
    description:
      "Most finished executions kept after age-based reaping, oldest removed first; 0 keeps none.",
    lenientEnv: true,
  },
  denyCommandRegex: {
    fileKey: "deny_command_regex",
    env: "YIELDSHELL_DENY_COMMAND_REGEX",
    flag: "deny-command-regex",
    valueName: "regex",
    schema: pattern,
    expected: PATTERN_EXPECTED,
    default: () => null,
    description:
      "Refuse, before they start, commands in which this regular expression finds a match (an unanchored search). It applies to an explicit shell too. Empty: off.",
  },
  allowCommandRegex: {
    fileKey: "allow_command_regex",
    env: "YIELDSHELL_ALLOW_COMMAND_REGEX",
    flag: "allow-command-regex",
    valueName: "regex",
    schema: pattern,
    expected: PATTERN_EXPECTED,
    default: () => null,
    description:
      "When set, allow only commands in which this regular expression finds a match; checked after the deny regex. It applies to an explicit shell too. Empty: off.",
  },
  redactEnvRegex: {
    fileKey: "redact_env_regex",
    env: "YIELDSHELL_REDACT_ENV_REGEX",
    flag: "redact-env-regex",
    valueName: "regex",
    schema: pattern,
    expected: PATTERN_EXPECTED,
    default: () => null,
    description:
      "Turns redaction on: values of 8 or more characters of the environment variables whose names match are replaced in output by [REDACTED:NAME]. Empty: off.",
  },
  blockedSideEffects: {
    fileKey: "blocked_side_effects",
    env: "MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS",
    flag: "blocked-side-effects",
    valueName: "names",
    form: "sideEffects",
    schema: z.array(z.enum(SIDE_EFFECTS)).transform((names) => [...new Set(names)]),
    expected: `a list of side-effect names (case-sensitive): ${
      [...SIDE_EFFECTS].sort().join(", ")
    }`,
    default: () => [...DEFAULT_BLOCKED_SIDE_EFFECTS],
    description:
      'Categories of side_effects that execute refuses. A list replaces the defaults; an empty list blocks nothing. The flag and the variable take comma-separated names, and "," blocks nothing (so does an empty flag); an empty or blank variable keeps the defaults.',
  },
  transport: {
    fileKey: "transport",
    env: "YIELDSHELL_TRANSPORT",
    flag: "transport",
    valueName: "stdio|http",
    schema: z.enum(["stdio", "http", "streamable-http"]).transform((name) =>
      name === "streamable-http" ? "http" : name
    ),
    expected: 'stdio or http ("streamable-http" also means http)',
    default: () => "stdio",
    description:
      "How MCP clients connect: stdio, or streamable HTTP on host and port at the path /mcp.",
  },
  host: {
    fileKey: "host",
    env: "YIELDSHELL_HOST",
    flag: "host",
    valueName: "address",
    schema: z.string().regex(/^\S+$/),
    expected: "a host name or IP address",
    default: () => "127.0.0.1",
    description:
      "Address the HTTP transport binds. Anything but a loopback address (127.0.0.0/8, ::1, localhost) requires auth_token.",
  },
  port: {
    fileKey: "port",
    env: "YIELDSHELL_PORT",
    flag: "port",
    valueName: "port",
    form: "integer",
    schema: z.int().min(0).max(65_535),
    expected: "an integer from 0 to 65535",
    default: () => 8000,
    description: "Port of the HTTP transport; 0 picks a free port.",
  },
  authToken: {
    fileKey: "auth_token",
    env: "YIELDSHELL_AUTH_TOKEN",
    flag: "auth-token",
    valueName: "token",
    schema: optionalText,
    expected: "a string",
    default: () => null,
    description:
      "Bearer token every HTTP request must carry; empty means none. Prefer the variable or the file: other users can see command lines.",
  },
  allowedOrigins: {
    fileKey: "allowed_origins",
    env: "YIELDSHELL_ALLOWED_ORIGINS",
    flag: "allowed-origin",
    valueName: "origin",
    form: "commaList",
    schema: z.array(origin),
    expected: "origins such as https://example.com:8443 (scheme, host and port only)",
    default: () => [],
    description:
      "Browser origins allowed to call the HTTP transport besides loopback ones. The flag repeats; the variable is comma-separated.",
  },
  maxHttpSessions: {
    fileKey: "max_http_sessions",
    env: "YIELDSHELL_MAX_HTTP_SESSIONS",
    flag: "max-http-sessions",
    valueName: "n",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 64,
    description: "Most concurrent HTTP MCP sessions.",
  },
  maxConcurrentRequests: {
    fileKey: "max_concurrent_requests",
    env: "YIELDSHELL_MAX_CONCURRENT_REQUESTS",
    flag: "max-concurrent-requests",
    valueName: "n",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 128,
    description: "Most HTTP requests handled at once.",
  },
  blacklist: {
    fileKey: "blacklist",
    env: "YIELDSHELL_BLACKLIST",
    flag: "blacklist",
    valueName: "names",
    form: "commaList",
    schema: nameList,
    expected: "a list of non-empty command names",
    default: () => [],
    description:
      'Command names refused anywhere in a command line, compared by basename and full path; ignored when whitelist is set. Comma-separated in the flag and the variable; the flag given "" clears it. Advisory: the side-effect policy and an OS sandbox are the real guards.',
  },
  whitelist: {
    fileKey: "whitelist",
    env: "YIELDSHELL_WHITELIST",
    flag: "whitelist",
    valueName: "names",
    form: "commaList",
    schema: nameList,
    expected: "a list of non-empty command names",
    default: () => [],
    description:
      'When non-empty, the only command names allowed; command names that cannot be known before running (such as $cmd or eval) are refused. Comma-separated in the flag and the variable; the flag given "" clears it.',
  },
  shell: {
    fileKey: "shell",
    env: "YIELDSHELL_SHELL",
    flag: "shell",
    valueName: "path",
    schema: optionalText,
    expected: "a shell path or name",
    default: () => null,
    description:
      "Shell that runs commands whose call names none; empty or null means the platform default.",
  },
  keepaliveIntervalMs: {
    fileKey: "keepalive_interval_ms",
    env: "YIELDSHELL_KEEPALIVE_INTERVAL_MS",
    flag: "keepalive-interval-ms",
    valueName: "ms",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 5000,
    description:
      "Interval of progress notifications during a blocking execute or wait whose request carries a progressToken.",
  },
  truncation: {
    fileKey: "truncation",
    env: "YIELDSHELL_TRUNCATION",
    flag: "truncation",
    valueName: "head|tail",
    schema: z.enum(["head", "tail"]),
    expected: "head or tail",
    default: () => "head",
    description:
      "Default truncation of output larger than a response: head returns the oldest bytes and moves the cursor; tail returns the newest bytes and leaves the cursor.",
  },
  nonInteractiveEnv: {
    fileKey: "non_interactive_env",
    valueName: "map",
    schema: z.record(z.string().regex(/^[^=\0]+$/), z.string()),
    expected: 'a map of variable names to string values (quote numbers and booleans: "0")',
    default: () => ({
      GIT_TERMINAL_PROMPT: "0",
      CI: "true",
      DEBIAN_FRONTEND: "noninteractive",
      PAGER: "cat",
      GIT_PAGER: "cat",
    }),
    description:
      "Variables set for every command so that tools do not wait for input; a call's env overrides them. This map replaces the default one; {} sets nothing.",
  },
  spool: {
    fileKey: "spool",
    env: "YIELDSHELL_SPOOL",
    flag: "spool",
    valueName: "on|off",
    schema: z.union([z.enum(["on", "off"]), z.boolean()]).transform((value) =>
      value === true ? "on" : value === false ? "off" : value
    ),
    expected: "on or off",
    default: () => "on",
    description:
      "on: every byte of output is kept on disk within max_spool_bytes, with max_buffer_bytes as a memory cache of the newest bytes, so cursors reach the whole history; off: the memory buffer is all that is kept (the contract's retention).",
  },
  spoolDir: {
    fileKey: "spool_dir",
    env: "YIELDSHELL_SPOOL_DIR",
    flag: "spool-dir",
    valueName: "path",
    schema: optionalText,
    expected: "a directory path",
    default: () => null,
    description:
      "Directory in which the server makes its private spool directory (named by its process id, mode 0700) and removes those of dead servers; empty or null means yieldshell-spool in the system temp directory. The server needs write permission there only.",
  },
  maxSpoolBytes: {
    fileKey: "max_spool_bytes",
    env: "YIELDSHELL_MAX_SPOOL_BYTES",
    flag: "max-spool-bytes",
    valueName: "bytes",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 1_073_741_824,
    description:
      "Bytes of output kept for each stream of each execution when spooling; older bytes are evicted (reads report evicted).",
  },
  maxSpoolTotalBytes: {
    fileKey: "max_spool_total_bytes",
    env: "YIELDSHELL_MAX_SPOOL_TOTAL_BYTES",
    flag: "max-spool-total-bytes",
    valueName: "bytes",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 4_294_967_296,
    description:
      "Bytes of spooled output on disk for the whole server, and never more than the free space of its file system minus a margin (256 MiB, or a tenth of a small file system); the oldest files of any execution go first.",
  },
};

/** The setting keys in table order, which is also the order of checks and of `--help`. */
export const SETTING_KEYS = Object.keys(SETTINGS) as (keyof Config)[];

/** Flags and variables that steer the command rather than fill a setting. */
export const COMMAND_OPTIONS = {
  config: {
    flag: "config",
    env: "YIELDSHELL_CONFIG",
    valueName: "path",
    description:
      "Read settings from this YAML or JSON file (snake_case keys, listed below). A named file that cannot be read is an error.",
  },
  help: { flag: "help", short: "h", description: "Print this help and exit." },
  version: { flag: "version", description: "Print the version and exit." },
} as const;

/** Whether a setting's flag may be given more than once, each time adding to the list. */
export function isRepeatable(key: keyof Config): boolean {
  const form = SETTINGS[key].form ?? "text";
  return form !== "text" && form !== "integer";
}

/** The defaults, as a complete `Config`. */
export function defaultConfig(cwd: string): Config {
  const entries = SETTING_KEYS.map((key) => [key, SETTINGS[key].default(cwd)]);
  return Object.fromEntries(entries) as Config;
}
