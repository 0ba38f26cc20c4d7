import type { Decision } from "./decision.ts";

/** The command-name lists of the configuration. */
export interface NameLists {
  blacklist: readonly string[];
  whitelist: readonly string[];
}

/**
 * Loads the bash grammar only when a list is configured, and returns the check
 * admission runs (the shell, explicit or default, then the command); undefined
 * when there is no list.
 */
export async function loadNameChecker(
  lists: NameLists,
  defaultShell: string,
): Promise<((command: string, shell: string | null) => Decision) | undefined> {
  if (lists.blacklist.length === 0 && lists.whitelist.length === 0) return undefined;
  // Loaded on demand: servers without a list never pay for the grammar at startup.
  const { BashParser } = await import("./bash_parser.ts");
  const { checkCommandNames, checkShellGrammar, checkShellName } = await import(
    "./command_names.ts"
  );
  const grammar = checkShellGrammar(defaultShell);
  if (!grammar.allow) {
    // Refuse at startup rather than on every call.
    throw new Error(`${grammar.reason}; set --shell to bash, sh or dash, or remove the lists`);
  }
  const parser = await BashParser.load();
  const copy = { blacklist: [...lists.blacklist], whitelist: [...lists.whitelist] };
  return (command, shell) => {
    // An explicit shell is the agent's choice and must pass the lists; the operator's default
    // was checked above: it need only read bash, as a list means nothing under cmd.exe.
    if (shell !== null) {
      const decision = checkShellName(shell, copy);
      if (!decision.allow) return decision;
    }
    return checkCommandNames(command, copy, parser);
  };
}
