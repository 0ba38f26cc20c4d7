import { stringify } from "yaml";
import { type Setting, SETTING_KEYS, SETTINGS } from "./schema.ts";
import { wrap } from "./wrap.ts";

const WIDTH = 100;

const HEADER = [
  "# yieldshell configuration file: YAML (or JSON), passed with --config FILE or YIELDSHELL_CONFIG.",
  "# A flag beats an environment variable, a variable beats this file, and this file beats the",
  "# built-in default. Every key below is set to its default; keep only the ones you change.",
  "# Unknown keys and values of the wrong type stop the server at startup with a message.",
  "#",
  "# Generated from src/config/schema.ts; tests/config/example_test.ts fails when they differ.",
];

/** The text of `config.example.yaml`: every file key, its meaning, sources and default. */
export function exampleConfigYaml(): string {
  const blocks = SETTING_KEYS.map((key) => entry(SETTINGS[key]));
  return [HEADER.join("\n"), ...blocks].join("\n\n") + "\n";
}

function entry(setting: Setting<unknown>): string {
  const sources = setting.flag === undefined
    ? "Config file only."
    : `Flag --${setting.flag}${setting.env ? `, variable ${setting.env}` : ""}.`;
  const lines = [...wrap(setting.description, "# ", WIDTH), `# ${sources}`];
  if (setting.defaultText !== undefined) {
    lines.push(
      `# Default: ${setting.defaultText}.`,
      `# ${setting.fileKey}: <${setting.valueName}>`,
    );
  } else {
    lines.push(stringify({ [setting.fileKey]: setting.default("") }).trimEnd());
  }
  return lines.join("\n");
}
