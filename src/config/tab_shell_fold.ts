import { ConfigError } from "./check_setting.ts";
import { type Config, SETTINGS } from "./schema.ts";

/** The values one source gave, and how that source spells a setting. */
export interface SettingLayer {
  values: Partial<Config>;
  /** "the command line", "the environment", "config file x.yaml". */
  source: string;
  /** `--timeout`, `YIELDSHELL_PORT`, `default_timeout`. */
  name(key: keyof Config): string;
}

/** Bytes one character can take in UTF-8: a ring this many times the budget holds it whole. */
const BYTES_PER_CHAR = 4;

type Folded = "defaultTimeoutMs" | "truncation" | "processRetentionMs" | "keepaliveIntervalMs";

/** tab-shell-mcp's name of each setting we already have, and the conversion to ours. */
const PAIRS: {
  theirs: "defaultTimeout" | "outputTruncationMode" | "completedTaskTtl" | "keepaliveInterval";
  ours: Folded;
  /** Units of each spelling, for the message that refuses both in one source. */
  units: [string, string];
  toOurs: (value: never) => Config[Folded];
  fromOurs?: (value: never) => unknown;
}[] = [
  {
    theirs: "defaultTimeout",
    ours: "defaultTimeoutMs",
    units: [", in seconds", " (milliseconds)"],
    toOurs: (seconds: number) => secondsToMs(seconds),
    fromOurs: (ms: number) => ms / 1000,
  },
  {
    theirs: "outputTruncationMode",
    ours: "truncation",
    units: ["", ""],
    toOurs: (mode: "head" | "tail") => mode,
    fromOurs: (mode: "head" | "tail") => mode,
  },
  {
    theirs: "completedTaskTtl",
    ours: "processRetentionMs",
    units: [", in seconds, 0 keeping records", " (milliseconds, 0 reaping at once)"],
    // tab-shell-mcp's 0 keeps records until exit; ours reaps at once.
    toOurs: (seconds: number) => seconds === 0 ? Infinity : secondsToMs(seconds),
  },
  {
    theirs: "keepaliveInterval",
    ours: "keepaliveIntervalMs",
    units: [", in seconds", " (milliseconds)"],
    toOurs: (seconds: number) => secondsToMs(seconds),
  },
];

/**
 * Folds tab-shell-mcp's spellings into our settings, in place. `layers` are in rising
 * precedence (file, variables, flags): both spellings in one source are refused; across sources
 * the stronger source wins, said in a warning. Afterwards `defaultTimeout` and
 * `outputTruncationMode` are the tab-shell tools' defaults when either spelling was given, and
 * null for tab-shell's own. Returns the warnings.
 */
export function foldTabShellSettings(config: Config, layers: readonly SettingLayer[]): string[] {
  const warnings: string[] = [];
  for (const pair of PAIRS) {
    const theirsAt = strongest(layers, pair.theirs);
    const oursAt = strongest(layers, pair.ours);
    if (theirsAt !== -1 && theirsAt === oursAt) {
      const { source, name } = layers[theirsAt];
      const [theirUnits, ourUnits] = pair.units;
      throw new ConfigError(
        `Cannot use both ${name(pair.theirs)} (tab-shell-mcp's name${theirUnits}) and ${
          name(pair.ours)
        }${ourUnits} in ${source}: they set the same thing; keep one`,
      );
    }
    if (theirsAt > oursAt) {
      Object.assign(config, { [pair.ours]: pair.toOurs(config[pair.theirs] as never) });
    } else if (pair.fromOurs !== undefined) {
      const given = oursAt === -1 ? null : pair.fromOurs(config[pair.ours] as never);
      Object.assign(config, { [pair.theirs]: given });
    }
    if (theirsAt !== -1 && oursAt !== -1) {
      const [winner, loser] = theirsAt > oursAt
        ? [label(layers[theirsAt], pair.theirs), label(layers[oursAt], pair.ours)]
        : [label(layers[oursAt], pair.ours), label(layers[theirsAt], pair.theirs)];
      warnings.push(`${winner} wins over ${loser}, which sets the same thing`);
    }
  }
  return [...warnings, ...fitProfile(config, layers)];
}

/** Settings that only make sense together with the tool profile; adjusts or warns. */
function fitProfile(config: Config, layers: readonly SettingLayer[]): string[] {
  const served = config.tools !== "yieldshell";
  const lengthAt = strongest(layers, "maxOutputLength");
  if (!served) {
    if (lengthAt === -1) return [];
    return [
      `${
        label(layers[lengthAt], "maxOutputLength")
      } only applies to the tab-shell tools, which --tools yieldshell does not serve; pass --tools tab-shell or both`,
    ];
  }
  const warnings: string[] = [];
  const needed = config.maxOutputLength * BYTES_PER_CHAR;
  const bufferAt = strongest(layers, "maxBufferBytes");
  if (bufferAt === -1) {
    config.maxBufferBytes = Math.max(config.maxBufferBytes, needed);
  } else if (config.maxBufferBytes < needed) {
    warnings.push(
      `${
        label(layers[bufferAt], "maxBufferBytes")
      } is ${config.maxBufferBytes}, below ${needed}, the bytes max_output_length (${config.maxOutputLength} characters) can take, so a tab-shell result of longer output may lose its oldest part; raise it or lower max_output_length`,
    );
  }
  if (config.blockedSideEffects.includes("UNKNOWN")) {
    warnings.push(
      "blocked_side_effects lists UNKNOWN, which every execute_shell_command call declares (its tool takes no side_effects), so that tool refuses every command",
    );
  }
  return warnings;
}

/** Index of the strongest layer that gives `key` a value, or -1. */
function strongest(layers: readonly SettingLayer[], key: keyof Config): number {
  return layers.findLastIndex((layer) =>
    layer.values[key] !== undefined && layer.values[key] !== null
  );
}

/** Seconds to milliseconds, never 0 (which means "none" or "at once" in ours). */
function secondsToMs(seconds: number): number {
  return Math.min(Math.max(1, Math.round(seconds * 1000)), Number.MAX_SAFE_INTEGER);
}

/** A setting as one source spells it, and the source: `--timeout (the command line)`. */
function label(layer: SettingLayer, key: keyof Config): string {
  return `${layer.name(key)} (${layer.source})`;
}

/** The file, the environment and the command line as layers, in rising precedence. */
export function settingLayers(
  values: { file: Partial<Config>; env: Partial<Config>; cli: Partial<Config> },
  configPath: string | undefined,
): SettingLayer[] {
  return [
    {
      values: values.file,
      source: `config file ${configPath}`,
      name: (key) => SETTINGS[key].fileKey,
    },
    {
      values: values.env,
      source: "the environment",
      name: (key) => SETTINGS[key].env ?? SETTINGS[key].fileKey,
    },
    {
      values: values.cli,
      source: "the command line",
      name: (key) => `--${SETTINGS[key].flag ?? SETTINGS[key].fileKey}`,
    },
  ];
}
