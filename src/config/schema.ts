import { EXECUTION_SETTINGS } from "./execution_settings.ts";
import { parseInteger } from "./parse_integer.ts";
import { POLICY_SETTINGS } from "./policy_settings.ts";
import { SANDBOX_SETTINGS } from "./sandbox_settings.ts";
import type { Config, Settings, TextForm } from "./setting.ts";
import { SHELL_SETTINGS } from "./shell_settings.ts";
import { SPOOL_SETTINGS } from "./spool_settings.ts";
import { TAB_SHELL_SETTINGS } from "./tab_shell_settings.ts";
import { TRANSPORT_SETTINGS } from "./transport_settings.ts";

export type { Config, Setting, Settings, TextForm } from "./setting.ts";

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

/**
 * The one table of settings; readers, `--help` and `config.example.yaml` are built from it.
 * Its parts live beside it by topic; their order here is the table's order.
 */
export const SETTINGS: Settings = {
  ...EXECUTION_SETTINGS,
  ...POLICY_SETTINGS,
  ...TRANSPORT_SETTINGS,
  ...SHELL_SETTINGS,
  ...SPOOL_SETTINGS,
  ...SANDBOX_SETTINGS,
  ...TAB_SHELL_SETTINGS,
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
      "Read settings from this YAML or JSON file (snake_case keys, listed below). A named file that cannot be read is an error, and so is every unknown key (all are reported at once, each with the nearest valid key).",
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
