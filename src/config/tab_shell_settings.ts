import type { Settings, Zod } from "./setting.ts";
import { positiveInteger } from "./value_schemas.ts";

/** A decimal number as flags spell it: `60`, `2.5`, `.5`, `1e3`. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Seconds as tab-shell-mcp took them (a float), from a number or a flag's text; null: unset. */
function seconds(z: Zod, minimum: "positive" | "nonNegative") {
  const number = z.number();
  return z.preprocess(
    (value) => typeof value === "string" && DECIMAL.test(value.trim()) ? Number(value) : value,
    (minimum === "positive" ? number.positive() : number.nonnegative()).nullable(),
  );
}

/** tab-shell-mcp's truncation names, trimmed and lower-cased as it did; null: unset. */
function truncationMode(z: Zod) {
  return z.string().transform((text) => text.trim().toLowerCase())
    .pipe(z.enum(["head", "tail"])).nullable();
}

/**
 * The tool profile, and tab-shell-mcp's own flags and config keys with its units. Its names of
 * settings we already have (`default_timeout`, `output_truncation_mode`, `completed_task_ttl`,
 * `keepalive_interval`) are folded into ours at startup (`tab_shell_fold.ts`).
 */
export const TAB_SHELL_SETTINGS: Pick<
  Settings,
  | "tools"
  | "maxOutputLength"
  | "defaultTimeout"
  | "outputTruncationMode"
  | "completedTaskTtl"
  | "keepaliveInterval"
> = {
  tools: {
    fileKey: "tools",
    env: "YIELDSHELL_TOOLS",
    flag: "tools",
    valueName: "yieldshell|tab-shell|both",
    schema: (z) => z.enum(["yieldshell", "tab-shell", "both"]),
    expected: "yieldshell, tab-shell or both",
    default: () => "yieldshell",
    description:
      "Which tools to serve: yieldshell (execute, read, write, wait, stop, ps, cleanup), tab-shell (tab-shell-mcp's execute_shell_command, get_task_status, stop_background_task, list_background_tasks), or both; every tool runs on the same executions.",
  },
  maxOutputLength: {
    fileKey: "max_output_length",
    env: "YIELDSHELL_MAX_OUTPUT_LENGTH",
    flag: "max-output-length",
    valueName: "chars",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer (characters)",
    default: () => 50_000,
    description:
      "Most characters of stdout plus stderr in one result of the tab-shell tools (tab-shell-mcp's max_output_length); longer output is cut as output_truncation_mode says.",
  },
  defaultTimeout: {
    fileKey: "default_timeout",
    flag: "timeout",
    valueName: "seconds",
    schema: (z) => seconds(z, "positive"),
    expected: "a positive number of seconds",
    default: () => null,
    defaultText: "30 for execute_shell_command, the default_timeout_ms of execute otherwise",
    description:
      "tab-shell-mcp's name of default_timeout_ms, in seconds: the runtime limit of commands whose call passes none, for every tool. Unset, execute_shell_command kills a foreground command after 30 s.",
  },
  outputTruncationMode: {
    fileKey: "output_truncation_mode",
    flag: "output-truncation-mode",
    valueName: "head|tail",
    schema: truncationMode,
    expected: "head or tail",
    default: () => null,
    defaultText: "tail for the tab-shell tools, truncation for execute and wait",
    description:
      "tab-shell-mcp's name of truncation, for every tool: head keeps the beginning of oversized output, tail its end. Unset, the tab-shell tools keep the tail.",
  },
  completedTaskTtl: {
    fileKey: "completed_task_ttl",
    flag: "completed-task-ttl",
    valueName: "seconds",
    schema: (z) => seconds(z, "nonNegative"),
    expected: "a non-negative number of seconds",
    default: () => null,
    defaultText: "process_retention_ms",
    description:
      "tab-shell-mcp's name of process_retention_ms, in seconds: how long finished executions and tasks are kept; 0 keeps them until the server exits (max_retained_processes still applies).",
  },
  keepaliveInterval: {
    fileKey: "keepalive_interval",
    valueName: "seconds",
    schema: (z) => seconds(z, "positive"),
    expected: "a positive number of seconds",
    default: () => null,
    defaultText: "keepalive_interval_ms",
    description:
      "tab-shell-mcp's name of keepalive_interval_ms, in seconds: the interval of progress notifications during blocking calls.",
  },
};
