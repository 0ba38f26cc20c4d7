import { parseBlockedSideEffects } from "../policy/side_effects.ts";
import { type Checked, checkSetting, ConfigError } from "./check_setting.ts";
import { type Config, fromText, SETTING_KEYS, SETTINGS } from "./schema.ts";
import type { Zod } from "./setting.ts";

/** Settings found in the environment, and the invalid values that were ignored. */
export interface EnvReading {
  values: Partial<Config>;
  warnings: string[];
}

/** Options for `readEnv`. */
export interface ReadEnvOptions {
  /** Separator of path lists such as `YIELDSHELL_ALLOWED_CWDS`: `:` on POSIX, `;` on Windows. */
  pathListSeparator: ":" | ";";
  /** The zod namespace; needed when a setting's variable is set ({@linkcode setsAnySetting}). */
  zod?: Zod;
}

/** Whether `env` sets any setting's variable (an empty one counts as unset, as in `readEnv`). */
export function setsAnySetting(env: Readonly<Record<string, string>>): boolean {
  return SETTING_KEYS.some((key) => {
    const name = SETTINGS[key].env;
    return name !== undefined && env[name] !== undefined && env[name] !== "";
  });
}

/**
 * Reads every setting's environment variable. An empty variable counts as unset. An invalid
 * value throws `ConfigError`, except for the contract's numeric variables, which are ignored with
 * a warning.
 */
export function readEnv(
  env: Readonly<Record<string, string>>,
  options: ReadEnvOptions,
): EnvReading {
  const values: Partial<Config> = {};
  const warnings: string[] = [];
  for (const key of SETTING_KEYS) {
    const name = SETTINGS[key].env;
    const raw = name === undefined ? undefined : env[name];
    if (name === undefined || raw === undefined || raw === "") continue;
    const checked = readVariable(key, name, raw, options, warnings);
    if (checked === undefined) continue;
    if (checked.ok) {
      Object.assign(values, { [key]: checked.value });
    } else if (SETTINGS[key].lenientEnv) {
      warnings.push(`${checked.error}; ignoring the variable`);
    } else {
      throw new ConfigError(checked.error);
    }
  }
  return { values, warnings };
}

/** One variable's value, or undefined when it is to be treated as unset. */
function readVariable(
  key: keyof Config,
  name: string,
  raw: string,
  options: ReadEnvOptions,
  warnings: string[],
): Checked<unknown> | undefined {
  const source = { label: () => name, received: raw, zod: options.zod };
  const form = SETTINGS[key].form ?? "text";
  if (form !== "sideEffects") {
    return checkSetting(key, fromText(form, [raw], options.pathListSeparator), source);
  }
  const parsed = parseBlockedSideEffects(raw);
  if ("error" in parsed) throw new ConfigError(parsed.error);
  if (parsed.warning !== undefined) warnings.push(parsed.warning);
  // A blank value keeps the defaults (the contract), so a config file's list still applies.
  if (raw.trim() === "") return undefined;
  return checkSetting(key, parsed.value, source);
}
