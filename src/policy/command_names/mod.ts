/**
 * Command-name policy: finds every command a bash command line would run, with tree-sitter-bash,
 * and checks the names against a blacklist or a whitelist. The one entry point of this folder:
 * the engine is `name_collector.ts`, the per-command readers are in `commands/`. The checker and
 * the parser load on demand ({@link loadCommandNames}, {@link loadBashParser}), so a server
 * starts without them and one without a list never loads them.
 *
 * @module
 */
import type { Decision } from "../decision.ts";
import { readsBash } from "../shell_grammar.ts";
import type * as Parser from "./bash_parser.ts";
import type { BashParser, BashParserOptions } from "./bash_parser.ts";
import type * as Check from "./check_command_names.ts";
import type * as Shell from "./check_shell.ts";
import { dialectOf } from "./dialect.ts";
import type * as Extract from "./extract_command_names.ts";
import type { NameLists } from "./name_lists.ts";

export { BashParseError } from "./bash_parse_error.ts";
export type { BashParser, BashParserOptions, SyntaxNode } from "./bash_parser.ts";
export type { CheckOptions } from "./check_command_names.ts";
export type { ShellRules } from "./check_shell.ts";
export { type Dialect, dialectOf } from "./dialect.ts";
export type { ExtractOptions } from "./extract_command_names.ts";
export type { CommandNames, ExtractResult } from "./extract_result.ts";
export type { NameLists } from "./name_lists.ts";

/** The checker's functions, from {@link loadCommandNames}. */
export interface CommandNamesApi {
  /** Checks every command name a command would run against the lists. */
  checkCommandNames: typeof Check.checkCommandNames;
  /** Checks the explicit `shell` parameter while a list is set. */
  checkShellName: typeof Shell.checkShellName;
  /** Whether a shell reads bash syntax. */
  checkShellGrammar: typeof Shell.checkShellGrammar;
  /** Finds the command names of a parsed command line. */
  extractCommandNames: typeof Extract.extractCommandNames;
}

// The lazy modules are named by constants, not literals: Deno builds the module graph of every
// literal `import()` at startup (reading forty files a server without a list never runs), but
// not of a computed one. scripts/compile_plan.ts includes them in the binary.
const CHECK_MODULE = "./check_command_names.ts";
const SHELL_MODULE = "./check_shell.ts";
const EXTRACT_MODULE = "./extract_command_names.ts";
const PARSER_MODULE = "./bash_parser.ts";

/** Loads the checker (its forty modules are not needed until a list is configured). */
export async function loadCommandNames(): Promise<CommandNamesApi> {
  const [check, shell, extract]: [typeof Check, typeof Shell, typeof Extract] = await Promise.all([
    import(CHECK_MODULE),
    import(SHELL_MODULE),
    import(EXTRACT_MODULE),
  ]);
  return {
    checkCommandNames: check.checkCommandNames,
    checkShellName: shell.checkShellName,
    checkShellGrammar: shell.checkShellGrammar,
    extractCommandNames: extract.extractCommandNames,
  };
}

/**
 * Loads the bash parser: the tree-sitter runtime (once per process) and the grammar. Imported
 * on demand, so that a server without a list never loads the runtime.
 */
export async function loadBashParser(options: BashParserOptions = {}): Promise<BashParser> {
  const { BashParser }: typeof Parser = await import(PARSER_MODULE);
  return await BashParser.load(options);
}

/** What the command-name check is given of a request to run a command. */
export interface NameRequest {
  command: string;
  /** The explicit shell of the call, or null for the configured one. */
  shell: string | null;
  /** Variables the call sets in the command's environment. */
  env: Readonly<Record<string, string>>;
}

/** A command-name check whose grammar loads in the background. */
export interface NameChecker {
  /** Settles once the grammar is loaded; rejects if it cannot be. */
  ready: Promise<void>;
  /** Checks the explicit shell, the variables and every command name; call after `ready`. */
  check(request: NameRequest): Decision;
}

/** Options of {@link startNameChecker}. */
export interface NameCheckerOptions {
  /** The real path of a file, or null when it does not exist. @default Deno.realPathSync */
  realPath?: (path: string) => string | null;
}

/**
 * Starts loading the bash grammar when a list is configured, so the server can answer
 * `initialize` meanwhile; undefined when there is no list. Throws at once when the default
 * shell does not read bash, since a list means nothing under another grammar (cmd.exe).
 */
export function startNameChecker(
  lists: NameLists,
  defaultShell: string,
  options: NameCheckerOptions = {},
): NameChecker | undefined {
  if (lists.blacklist.length === 0 && lists.whitelist.length === 0) return undefined;
  const { realPath = realPathOrNull } = options;
  const real = realPath(defaultShell) ?? defaultShell;
  if (!readsBash(defaultShell) || !readsBash(real)) {
    throw new Error(
      `Shell '${defaultShell}' does not read bash syntax, so a blacklist or whitelist cannot be enforced; set --shell to bash, sh or dash, or remove the lists`,
    );
  }
  const copy = { blacklist: [...lists.blacklist], whitelist: [...lists.whitelist] };
  const shDialect = dialectOf(realPath("/bin/sh") ?? "bash");
  const rules = { defaultShell, realPath };
  let loaded: ((request: NameRequest) => Decision) | null = null;
  const ready = Promise.all([loadBashParser(), loadCommandNames()]).then(([parser, api]) => {
    const { checkCommandNames, checkShellName } = api;
    loaded = ({ command, shell, env }) => {
      // An explicit shell is the agent's choice and must be one the operator configured.
      if (shell !== null) {
        const decision = checkShellName(shell, copy, rules);
        if (!decision.allow) return decision;
      }
      const runs = shell === null ? real : realPath(shell) ?? shell;
      const dialect = dialectOf(runs, shDialect);
      return checkCommandNames(command, copy, parser, { dialect, shDialect, env });
    };
  });
  return {
    ready,
    check: (request) =>
      loaded?.(request) ??
        {
          allow: false,
          reason: "The command-name policy is still loading its grammar; retry in a moment",
        },
  };
}

function realPathOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}
