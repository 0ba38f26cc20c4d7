import type { NameLists } from "./command_names/name_lists.ts";
import type { Decision } from "./decision.ts";
import { readsBash } from "./shell_grammar.ts";

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
  const ready = (async () => {
    // Loaded on demand: servers without a list never pay for the grammar.
    const { BashParser } = await import("./bash_parser.ts");
    const { checkCommandNames, checkShellName } = await import("./command_names.ts");
    const parser = await BashParser.load();
    loaded = (command, shell) => {
      // An explicit shell is the agent's choice and must pass the lists too.
      if (shell !== null) {
        const decision = checkShellName(shell, copy);
        if (!decision.allow) return decision;
      }
      return checkCommandNames(command, copy, parser);
    };
  })();
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
