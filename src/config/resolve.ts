import { ConfigError } from "./check_setting.ts";
import { type ArgvParser, readCli } from "./cli.ts";
import { readEnv, setsAnySetting } from "./env.ts";
import { type FileReading, readConfigFile, type YamlParser } from "./file.ts";
import { helpText } from "./help.ts";
import { foldTabShellSettings, settingLayers } from "./tab_shell_fold.ts";
import { isLoopbackHost } from "../policy/loopback.ts";
import { checkCwd, resolvePath } from "../policy/cwd.ts";
import { COMMAND_OPTIONS, type Config, defaultConfig } from "./schema.ts";
import type { Zod } from "./setting.ts";

/** Everything `resolveConfig` needs from the process; `main.ts` gathers it. */
export interface ResolveInput {
  /** Command-line arguments, without the program name. */
  argv: readonly string[];
  /** The server's environment. */
  env: Readonly<Record<string, string>>;
  /** Directory the server starts in (the default of `defaultCwd`). */
  cwd: string;
  /** Separator of `YIELDSHELL_ALLOWED_CWDS`: `:` on POSIX, `;` on Windows. */
  pathListSeparator: ":" | ";";
  /** Reads the config file; throws when it cannot (its message is shown). */
  readFile: (path: string) => string;
  /** Version printed by `--version`. */
  version: string;
  /** Path separator of this OS, for checking the default cwd against the roots. @default {"/"} */
  pathSeparator?: "/" | "\\";
  /**
   * The canonical path of an existing path (symlinks followed), or null; the default cwd is
   * checked against the allowed roots with it. @default {lexical: every path taken as written}
   */
  realPath?: (path: string) => string | null;
  /**
   * The YAML parser, needed only when a config file is named; main.ts imports the
   * package on demand so that a server without a config file starts faster.
   */
  parseYaml?: YamlParser;
  /**
   * `parseArgs` of `node:util`, needed only when `argv` is not empty; main.ts imports it on
   * demand, as loading Node's util costs milliseconds at every start.
   */
  parseArgs?: ArgvParser;
  /**
   * The zod namespace, needed only when a value is to be checked ({@linkcode checksValues});
   * main.ts imports the package only then, as loading it costs milliseconds at every start.
   */
  zod?: Zod;
}

/**
 * Whether resolving `input` checks any value (so needs `zod`): any argument, a setting's
 * variable or a config file named by `YIELDSHELL_CONFIG`.
 */
export function checksValues(input: Pick<ResolveInput, "argv" | "env">): boolean {
  return input.argv.length > 0 || Boolean(input.env[COMMAND_OPTIONS.config.env]) ||
    setsAnySetting(input.env);
}

/** What the process should do: serve with a config, print help or version, or fail. */
export type Resolution =
  | { kind: "config"; config: Config; warnings: string[] }
  | { kind: "help"; text: string }
  | { kind: "version"; text: string }
  | { kind: "error"; error: string };

/**
 * Builds the configuration from flags, environment, config file and defaults, in that order of
 * precedence. Pure: all input arrives in `input`, and nothing is thrown for a bad setting.
 */
export function resolveConfig(input: ResolveInput): Resolution {
  try {
    return resolve(input);
  } catch (error) {
    if (error instanceof ConfigError) return { kind: "error", error: error.message };
    throw error;
  }
}

function resolve(input: ResolveInput): Resolution {
  const { zod } = input;
  const cli = readCli(input.argv, { parseArgs: input.parseArgs, zod });
  if (cli.kind === "help") return { kind: "help", text: helpText() };
  if (cli.kind === "version") return { kind: "version", text: `yieldshell ${input.version}` };

  const env = readEnv(input.env, { pathListSeparator: input.pathListSeparator, zod });
  const configPath = cli.configPath ?? (input.env[COMMAND_OPTIONS.config.env] || undefined);
  const file: FileReading = configPath === undefined
    ? { values: {}, warnings: [] }
    : readConfigFile(configPath, input.readFile, {
      parseYaml: requireParser(input.parseYaml),
      zod,
    });

  const config: Config = {
    ...defaultConfig(input.cwd),
    ...file.values,
    ...env.values,
    ...cli.values,
  };
  const explicitCwd = [file.values, env.values, cli.values].some((v) => v.defaultCwd !== undefined);
  const cwdNotice = fitDefaultCwd(config, explicitCwd, input);
  const layers = settingLayers({ file: file.values, env: env.values, cli: cli.values }, configPath);
  const tabShell = foldTabShellSettings(config, layers);
  return {
    kind: "config",
    config,
    warnings: [
      ...env.warnings,
      ...file.warnings,
      ...checkCombination(config),
      ...cwdNotice,
      ...tabShell,
    ],
  };
}

/**
 * With allowed roots, commands that pass no cwd must be able to run: a start directory outside
 * the roots gives way to the first root (said at startup), and an explicit default cwd outside
 * them is refused.
 */
function fitDefaultCwd(config: Config, explicit: boolean, input: ResolveInput): string[] {
  const roots = config.allowedCwds;
  if (roots.length === 0) return [];
  const options = {
    base: input.cwd,
    realPath: input.realPath ?? (() => null),
    separator: input.pathSeparator ?? "/",
  };
  const decision = checkCwd(config.defaultCwd, roots, options);
  if (decision.allow) return [];
  const listed = roots.join(", ");
  if (explicit) {
    throw new ConfigError(
      `Default cwd ${config.defaultCwd} is not under the allowed cwds (${listed}), so every command without a cwd would fail; set --default-cwd (YIELDSHELL_DEFAULT_CWD, default_cwd) to a directory under one of them, or allow it`,
    );
  }
  config.defaultCwd = resolvePath(roots[0], options);
  return [
    `The start directory ${input.cwd} is not under the allowed cwds (${listed}), so commands that pass no cwd run in ${config.defaultCwd}, the first of them; set --default-cwd to choose another`,
  ];
}

/** Rules that involve more than one setting; throws for a refusal, returns warnings. */
function checkCombination(config: Config): string[] {
  if (config.transport === "http" && config.authToken === null && !isLoopbackHost(config.host)) {
    throw new ConfigError(
      `Refusing to bind ${config.host} without an auth token; set --auth-token or YIELDSHELL_AUTH_TOKEN, or bind 127.0.0.1`,
    );
  }
  const warnings: string[] = [];
  if (config.whitelist.length > 0 && config.blacklist.length > 0) {
    warnings.push("The blacklist is ignored because a whitelist is set");
  }
  if (config.allowUnconfined.length > 0 && config.sandbox !== "declared") {
    warnings.push(
      `allow_unconfined is ignored because sandbox is ${config.sandbox}; it applies to sandbox: declared only`,
    );
  }
  return warnings;
}

function requireParser(parseYaml: YamlParser | undefined): YamlParser {
  if (parseYaml === undefined) {
    throw new ConfigError(
      "Cannot read the config file as the YAML parser was not loaded; name the file with --config or YIELDSHELL_CONFIG",
    );
  }
  return parseYaml;
}
