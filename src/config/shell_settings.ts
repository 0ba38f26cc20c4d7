import type { Settings } from "./setting.ts";
import { nameList, optionalText, positiveInteger } from "./value_schemas.ts";

/** The shell and its name lists, progress, truncation, and the children's environment. */
export const SHELL_SETTINGS: Pick<
  Settings,
  "blacklist" | "whitelist" | "shell" | "keepaliveIntervalMs" | "truncation" | "nonInteractiveEnv"
> = {
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
      "Shell that runs commands whose call names none; empty or null means the platform default (for the tab-shell tools, $SHELL, then the platform default, as tab-shell-mcp did).",
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
    schema: (z) => z.enum(["head", "tail"]),
    expected: "head or tail",
    default: () => "head",
    // Left out of config.example.yaml: the tab-shell tools keep their own default while unset.
    defaultText: "head (tail for the tab-shell tools)",
    description:
      "Default truncation of output larger than a response: head returns the oldest bytes and moves the cursor; tail returns the newest bytes and leaves the cursor.",
  },
  nonInteractiveEnv: {
    fileKey: "non_interactive_env",
    valueName: "map",
    schema: (z) => z.record(z.string().regex(/^[^=\0]+$/), z.string()),
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
};
