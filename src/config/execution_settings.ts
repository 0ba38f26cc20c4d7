import type { Settings } from "./setting.ts";
import { nonNegativeInteger, path, pathList, positiveInteger } from "./value_schemas.ts";

/** Where commands run, and the contract's numeric limits. */
export const EXECUTION_SETTINGS: Pick<
  Settings,
  | "defaultCwd"
  | "allowedCwds"
  | "maxOutputBytes"
  | "maxBufferBytes"
  | "maxProcesses"
  | "maxProcessesPerSession"
  | "defaultYieldMs"
  | "maxYieldMs"
  | "defaultTimeoutMs"
  | "processRetentionMs"
  | "maxRetainedProcesses"
> = {
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
      'Directories commands may run in, each with everything below it; empty means unrestricted. Without a default_cwd, a start directory outside them gives way to the first. The flag repeats; the variable separates paths with ":" (";" on Windows).',
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
  maxProcessesPerSession: {
    fileKey: "max_processes_per_session",
    env: "YIELDSHELL_MAX_PROCESSES_PER_SESSION",
    flag: "max-processes-per-session",
    valueName: "n",
    form: "integer",
    schema: (z) => positiveInteger(z).nullable(),
    expected: "a positive integer",
    default: () => null,
    description:
      "Most executions with live work one session may hold, so that no HTTP session can starve the others. null: half of max_processes (at least 1) over HTTP, max_processes over stdio (one session).",
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
    // Left out of config.example.yaml: the tab-shell tools keep their own default while unset.
    defaultText: "3600000 (30000 for a foreground execute_shell_command)",
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
};
