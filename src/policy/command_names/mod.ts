/**
 * Command-name policy: finds every command a bash command line would run, with tree-sitter-bash,
 * and checks the names against a blacklist or a whitelist. The one entry point of this folder:
 * the engine is `name_collector.ts`, the per-command readers are in `commands/`.
 *
 * @module
 */
import type { Decision } from "../decision.ts";
import { readsBash } from "../shell_grammar.ts";
import type { BashParser, BashParserOptions } from "./bash_parser.ts";
import { checkCommandNames } from "./check_command_names.ts";
import { checkShellName } from "./check_shell.ts";
import type { NameLists } from "./name_lists.ts";

export { BashParseError } from "./bash_parse_error.ts";
export type { BashParser, BashParserOptions, SyntaxNode } from "./bash_parser.ts";
export { checkCommandNames } from "./check_command_names.ts";
export { checkShellGrammar, checkShellName } from "./check_shell.ts";
export { extractCommandNames, type ExtractOptions } from "./extract_command_names.ts";
export type { CommandNames, ExtractResult } from "./extract_result.ts";
export type { NameLists } from "./name_lists.ts";

/**
 * Loads the bash parser: the tree-sitter runtime (once per process) and the grammar. Imported
 * on demand, so that a server without a list never loads the runtime.
 */
export async function loadBashParser(options: BashParserOptions = {}): Promise<BashParser> {
  const { BashParser } = await import("./bash_parser.ts");
  return await BashParser.load(options);
}

/** A command-name check whose grammar loads in the background. */
export interface NameChecker {
  /** Settles once the grammar is loaded; rejects if it cannot be. */
  ready: Promise<void>;
  /** Checks the explicit shell (if any) and every command name; call after `ready`. */
  check(command: string, shell: string | null): Decision;
}

/**
 * Starts loading the bash grammar when a list is configured, so the server can answer
 * `initialize` meanwhile; undefined when there is no list. Throws at once when the default
 * shell does not read bash, since a list means nothing under another grammar (cmd.exe).
 */
export function startNameChecker(lists: NameLists, defaultShell: string): NameChecker | undefined {
  if (lists.blacklist.length === 0 && lists.whitelist.length === 0) return undefined;
  if (!readsBash(defaultShell)) {
    throw new Error(
      `Shell '${defaultShell}' does not read bash syntax, so a blacklist or whitelist cannot be enforced; set --shell to bash, sh or dash, or remove the lists`,
    );
  }
  const copy = { blacklist: [...lists.blacklist], whitelist: [...lists.whitelist] };
  let loaded: ((command: string, shell: string | null) => Decision) | null = null;
  const ready = loadBashParser().then((parser) => {
    loaded = (command, shell) => {
      // An explicit shell is the agent's choice and must pass the lists too.
      if (shell !== null) {
        const decision = checkShellName(shell, copy);
        if (!decision.allow) return decision;
      }
      return checkCommandNames(command, copy, parser);
    };
  });
  return {
    ready,
    check: (command, shell) =>
      loaded?.(command, shell) ??
        {
          allow: false,
          reason: "The command-name policy is still loading its grammar; retry in a moment",
        },
  };
}
