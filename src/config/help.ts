import { COMMAND_OPTIONS, isRepeatable, type Setting, SETTING_KEYS, SETTINGS } from "./schema.ts";
import { wrap } from "./wrap.ts";

const WIDTH = 100;
const INDENT = "      ";

const INTRODUCTION = [
  "yieldshell serves a shell to AI agents over the Model Context Protocol, on stdio or streamable",
  "HTTP. Every setting can be given as a flag, an environment variable or a key of the config file:",
  "a flag beats a variable, a variable beats the config file, and the file beats the default.",
];

/** The `--help` text, generated from the settings table. */
export function helpText(): string {
  const { config, help, version } = COMMAND_OPTIONS;
  const lines = [
    "Usage: yieldshell [flags]",
    "",
    ...INTRODUCTION,
    "",
    "Flags:",
    `  -${help.short}, --${help.flag}`,
    ...wrap(help.description, INDENT, WIDTH),
    `  --${version.flag}`,
    ...wrap(version.description, INDENT, WIDTH),
    `  --${config.flag} <${config.valueName}>`,
    ...wrap(`${config.description} Variable: ${config.env}.`, INDENT, WIDTH),
  ];
  const fileOnly: string[] = [];
  for (const key of SETTING_KEYS) {
    const setting: Setting<unknown> = SETTINGS[key];
    if (setting.flag === undefined) {
      fileOnly.push("", `  ${setting.fileKey}`, ...describe(setting));
      continue;
    }
    const repeat = isRepeatable(key) ? " (repeatable)" : "";
    lines.push("", `  --${setting.flag} <${setting.valueName}>${repeat}`, ...describe(setting));
  }
  if (fileOnly.length > 0) lines.push("", "Config file only:", ...fileOnly.slice(1));
  return lines.join("\n");
}

function describe(setting: Setting<unknown>): string[] {
  const sources = [
    setting.env === undefined ? undefined : `Variable: ${setting.env}.`,
    `File key: ${setting.fileKey}.`,
    `Default: ${defaultText(setting)}.`,
  ].filter((part) => part !== undefined).join(" ");
  return [...wrap(setting.description, INDENT, WIDTH), ...wrap(sources, INDENT, WIDTH)];
}

/** The default as flags and variables would spell it. */
function defaultText(setting: Setting<unknown>): string {
  if (setting.defaultText !== undefined) return setting.defaultText;
  const value = setting.default("");
  if (value === null || (Array.isArray(value) && value.length === 0)) return "none";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "object") {
    return Object.entries(value).map(([name, text]) => `${name}=${text}`).join(", ");
  }
  return String(value);
}
