import type { parseArgs } from "node:util";
import { checkSetting, ConfigError } from "./check_setting.ts";
import {
  COMMAND_OPTIONS,
  type Config,
  fromText,
  isRepeatable,
  SETTING_KEYS,
  SETTINGS,
} from "./schema.ts";
import type { Zod } from "./setting.ts";

/** `parseArgs` of `node:util`, handed in: main.ts loads it only when there are arguments. */
export type ArgvParser = typeof parseArgs;

/** What reading a command line needs, handed in as main.ts loads them only when there is one. */
export interface CliParsers {
  parseArgs?: ArgvParser;
  zod?: Zod;
}

/** What the command line asks for. */
export type CliReading =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "settings"; values: Partial<Config>; configPath: string | undefined };

type OptionSpec = { type: "string" | "boolean"; multiple?: boolean; short?: string };

const SETTING_BY_FLAG = new Map(
  SETTING_KEYS.flatMap((key) => {
    const flag = SETTINGS[key].flag;
    return flag === undefined ? [] : [[flag, key] as const];
  }),
);

const PARSE_OPTIONS: Record<string, OptionSpec> = {
  ...Object.fromEntries(
    [...SETTING_BY_FLAG].map(([flag, key]) => [flag, {
      type: "string",
      multiple: isRepeatable(key),
    }]),
  ),
  [COMMAND_OPTIONS.config.flag]: { type: "string" },
  [COMMAND_OPTIONS.help.flag]: { type: "boolean", short: COMMAND_OPTIONS.help.short },
  [COMMAND_OPTIONS.version.flag]: { type: "boolean" },
};

/**
 * Reads the command line. `--help` (or `-h`) and `--version` win over everything else; otherwise
 * an unknown flag, a missing value, a positional argument or an invalid value throws
 * `ConfigError`.
 */
export function readCli(argv: readonly string[], parsers: CliParsers = {}): CliReading {
  const { parseArgs, zod } = parsers;
  // No arguments ask for nothing: the parser (Node's util, costly to load) is not needed.
  if (argv.length === 0) return { kind: "settings", values: {}, configPath: undefined };
  if (parseArgs === undefined) {
    throw new Error("Cannot read the command line as its parser was not loaded");
  }
  const { tokens } = parseArgs({
    args: [...argv],
    options: PARSE_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const given = (name: string) =>
    tokens.some((token) => token.kind === "option" && token.name === name && !token.value);
  if (given(COMMAND_OPTIONS.help.flag)) return { kind: "help" };
  if (given(COMMAND_OPTIONS.version.flag)) return { kind: "version" };

  const texts = flagTexts(tokens);
  const values: Partial<Config> = {};
  for (const [flag, flagTexts] of texts) {
    const key = SETTING_BY_FLAG.get(flag);
    if (key !== undefined) Object.assign(values, { [key]: flagSetting(key, flag, flagTexts, zod) });
  }
  const configPath = texts.get(COMMAND_OPTIONS.config.flag)?.at(-1);
  if (configPath === "") {
    throw new ConfigError(`Invalid --config: received ""; expected ${CONFIG_EXPECTED}`);
  }
  return { kind: "settings", values, configPath };
}

/** The tokens of `parseArgs` that the command line is read from. */
type CliToken =
  | { kind: "positional"; value: string }
  | { kind: "option"; name: string; rawName: string; value?: string; inlineValue?: boolean }
  | { kind: "option-terminator" };

/** The texts given to each string flag, in order; refuses positionals and unknown flags. */
function flagTexts(tokens: readonly CliToken[]): Map<string, string[]> {
  const texts = new Map<string, string[]>();
  for (const token of tokens) {
    if (token.kind === "positional") {
      throw new ConfigError(
        `Unexpected argument "${token.value}"; yieldshell takes only flags (see --help)`,
      );
    }
    if (token.kind !== "option") continue;
    const spec = PARSE_OPTIONS[token.name];
    if (spec === undefined) {
      throw new ConfigError(`Unknown flag ${token.rawName}; run yieldshell --help for the flags`);
    }
    if (spec.type === "boolean") {
      throw new ConfigError(`Flag ${token.rawName} takes no value: received "${token.value}"`);
    }
    texts.set(token.name, [
      ...texts.get(token.name) ?? [],
      flagValue(token, expectedFor(token.name)),
    ]);
  }
  return texts;
}

const CONFIG_EXPECTED = "the path of a config file";

function expectedFor(flag: string): string {
  const key = SETTING_BY_FLAG.get(flag);
  return key === undefined ? CONFIG_EXPECTED : SETTINGS[key].expected;
}

type OptionToken = { rawName: string; value?: string; inlineValue?: boolean };

/** The text a string flag was given; a following argument that looks like a flag is not one. */
function flagValue(token: OptionToken, expected: string): string {
  const { rawName, value, inlineValue } = token;
  if (value === undefined) {
    throw new ConfigError(`Missing value for ${rawName}; expected ${expected}`);
  }
  if (!inlineValue && value.startsWith("-") && value !== "-") {
    throw new ConfigError(
      `Missing value for ${rawName}; expected ${expected}, but the next argument "${value}" looks like a flag (write ${rawName}=${value} to pass a value that starts with "-")`,
    );
  }
  return value;
}

/** Turns the texts of one setting's flag into its value, or throws. */
function flagSetting(
  key: keyof Config,
  flag: string,
  texts: readonly string[],
  zod: Zod | undefined,
): unknown {
  const candidate = fromText(SETTINGS[key].form ?? "text", texts);
  const received = isRepeatable(key) ? texts.join(",") : texts.at(-1);
  const checked = checkSetting(key, candidate, { label: () => `--${flag}`, received, zod });
  if (!checked.ok) throw new ConfigError(checked.error);
  return checked.value;
}
