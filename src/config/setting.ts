import type { z } from "zod";
import type { Truncation } from "../contract/arguments.ts";
import type { Limits } from "../contract/limits.ts";
import type { SandboxMode } from "../policy/sandbox_profile.ts";
import type { ToolProfile } from "../contract/tab_shell.ts";
import type { SideEffect } from "../policy/side_effects.ts";

/**
 * The zod namespace, handed to the schema builders: main.ts loads the package only when a value
 * is to be checked (a flag, a setting's variable or a config file), as loading it costs
 * milliseconds at every start.
 */
export type Zod = typeof z;

/** The resolved server configuration: the contract's limits, and everything around them. */
export interface Config extends Limits {
  /** Working directory for commands that pass no cwd. */
  defaultCwd: string;
  /** Most live executions of one session; null: a fair share for the transport. */
  maxProcessesPerSession: number | null;
  /** Roots a command's cwd must lie under; empty means unrestricted. */
  allowedCwds: string[];
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
  /** Longest time an HTTP client may take to send one request, headers and body. */
  requestReadTimeoutMs: number;
  /** Command names refused when no whitelist is set. */
  blacklist: string[];
  /** When non-empty, the only command names allowed. */
  whitelist: string[];
  /** Shell for calls that name none; null means the platform default. */
  shell: string | null;
  /** Variables set for every command; the call's `env` overrides them. */
  nonInteractiveEnv: Record<string, string>;
  /** Whether and how executions run in an OS sandbox. */
  sandbox: SandboxMode;
  /** Unconfinable side effects that `sandbox: declared` runs without a sandbox. */
  allowUnconfined: SideEffect[];
  /** Whether output older than the memory cache is kept on disk. */
  spool: "on" | "off";
  /** Directory holding one spool directory per server process; null: the system temp directory's. */
  spoolDir: string | null;
  /** Bytes of output kept per stream of one execution (memory and disk). */
  maxSpoolBytes: number;
  /** Bytes of spooled output on disk for the whole server. */
  maxSpoolTotalBytes: number;
  // The tool profile and tab-shell-mcp's settings (`tab_shell_settings.ts`).
  /** Which tool set the server serves. */
  tools: ToolProfile;
  /** Most characters of stdout plus stderr in one tab-shell result. */
  maxOutputLength: number;
  /**
   * tab-shell-mcp's `default_timeout`, seconds. Once resolved: the tab-shell tools' foreground
   * default when either spelling was given (0: none), null for tab-shell's 30 s.
   */
  defaultTimeout: number | null;
  /** `output_truncation_mode`; once resolved, null when neither spelling was given (tail). */
  outputTruncationMode: Truncation | null;
  /** `completed_task_ttl`, seconds, folded into `processRetentionMs` (0: keep). */
  completedTaskTtl: number | null;
  /** `keepalive_interval`, seconds, folded into `keepaliveIntervalMs`. */
  keepaliveInterval: number | null;
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
  /** Builds the schema that validates (and normalizes) a value from any source (on use: zod schemas cost time to build). */
  schema: (zod: Zod) => z.ZodType<T>;
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
