import { errorText } from "../contract/error_text.ts";
import type { parseDocument } from "yaml";
import type { z } from "zod";
import { ConfigError, describeIssue, describePath, requireZod, show } from "./check_setting.ts";
import { nearestName } from "./nearest_name.ts";
import { type Config, SETTING_KEYS, SETTINGS } from "./schema.ts";
import type { Zod } from "./setting.ts";

/** Settings found in a config file, and the parser's warnings. */
export interface FileReading {
  values: Partial<Config>;
  warnings: string[];
}

const KEY_BY_FILE_KEY = new Map(SETTING_KEYS.map((key) => [SETTINGS[key].fileKey, key]));

/** Every file key under its own spelling and those of its variable and flag, for suggestions. */
const FILE_KEY_SPELLINGS = new Map(
  SETTING_KEYS.flatMap((key) => {
    const { fileKey, env, flag } = SETTINGS[key];
    return [fileKey, env, flag].filter((text) => text !== undefined).map((text) => [text, fileKey]);
  }),
);

/**
 * The file's shape: every setting optional under its snake_case key, and nothing else. Built
 * when a file is read (once per process): building it costs milliseconds at every start.
 */
function fileSchema(z: Zod) {
  return z.strictObject(
    Object.fromEntries(SETTING_KEYS.map((key) => [SETTINGS[key].fileKey, SETTINGS[key].schema(z)])),
  ).partial();
}

/** The `yaml` package's parser; main.ts loads the package only when a config file is named. */
export type YamlParser = typeof parseDocument;

/** What reading a config file needs (main.ts loads both only when a file is named). */
export interface FileParsers {
  parseYaml: YamlParser;
  zod: Zod | undefined;
}

/** Reads and checks a YAML or JSON config file; any problem throws `ConfigError` naming `path`. */
export function readConfigFile(
  path: string,
  readFile: (path: string) => string,
  parsers: FileParsers,
): FileReading {
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    throw new ConfigError(`Cannot read config file ${path}: ${errorText(error)}`);
  }
  return parseConfigText(text, path, parsers);
}

/** Parses and checks the text of a config file; `path` is only used in messages. */
export function parseConfigText(text: string, path: string, parsers: FileParsers): FileReading {
  const document = parsers.parseYaml(text);
  const [firstError] = document.errors;
  if (firstError !== undefined) {
    throw new ConfigError(`Cannot parse config file ${path}: ${firstLine(firstError.message)}`);
  }
  const warnings = document.warnings.map((warning) =>
    `Config file ${path}: ${firstLine(warning.message)}`
  );
  let data: unknown;
  try {
    data = document.toJS() ?? {};
  } catch (error) {
    throw new ConfigError(`Cannot parse config file ${path}: ${errorText(error)}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ConfigError(
      `Config file ${path} must hold a mapping of settings (key: value); received ${show(data)}`,
    );
  }
  const result = fileSchema(requireZod(parsers.zod)).safeParse(data);
  if (!result.success) throw new ConfigError(describeFailure(result.error.issues, data, path));
  const values: Partial<Config> = {};
  for (const [fileKey, value] of Object.entries(result.data)) {
    const key = KEY_BY_FILE_KEY.get(fileKey);
    if (key !== undefined && value !== undefined) Object.assign(values, { [key]: value });
  }
  return { values, warnings };
}

/** One sentence for the most useful issue: every unknown key first, else the first bad value. */
function describeFailure(issues: z.core.$ZodIssue[], data: object, path: string): string {
  const unknown = issues.flatMap((issue) => issue.code === "unrecognized_keys" ? issue.keys : []);
  if (unknown.length > 0) return describeUnknownKeys(unknown, path);
  const issue = issues[0];
  const key = KEY_BY_FILE_KEY.get(String(issue.path[0]));
  const expected = key === undefined ? "a valid value" : SETTINGS[key].expected;
  const source = {
    label: (at: readonly PropertyKey[]) =>
      `${describePath(String(at[0]), at.slice(1))} in config file ${path}`,
    received: data,
  };
  return describeIssue(issue, data, source, expected);
}

/** Names every unknown key with the nearest valid one, then lists the valid keys. */
function describeUnknownKeys(keys: readonly string[], path: string): string {
  const nearest = (key: string) => `(nearest valid key: ${nearestName(key, FILE_KEY_SPELLINGS)})`;
  const found = keys.length === 1
    ? `Unknown key "${keys[0]}" in config file ${path} ${nearest(keys[0])}`
    : `Unknown keys in config file ${path}: ${
      keys.map((key) => `"${key}" ${nearest(key)}`).join(", ")
    }`;
  const validKeys = [...KEY_BY_FILE_KEY.keys()].sort().join(", ");
  // Deno's own deno.json passed to yieldshell: `--config` after main.ts is yieldshell's flag.
  const denoJson = /(^|[\\/])deno\.jsonc?$/.test(path)
    ? "; this is Deno's configuration: Deno finds deno.json beside main.ts by itself, and a --config after main.ts names a yieldshell config file"
    : "";
  return `${found}; valid keys: ${validKeys}${denoJson}`;
}

function firstLine(message: string): string {
  return message.split("\n")[0].replace(/:$/, "");
}
