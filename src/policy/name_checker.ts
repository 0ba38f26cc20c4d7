import type { Decision } from "./decision.ts";

/** The command-name lists of the configuration. */
export interface NameLists {
  blacklist: readonly string[];
  whitelist: readonly string[];
}

/**
 * Loads the bash grammar only when a list is configured, and returns the check
 * admission runs (command, then the explicit shell); undefined when there is none.
 */
export async function loadNameChecker(
  lists: NameLists,
): Promise<((command: string, shell: string | null) => Decision) | undefined> {
  if (lists.blacklist.length === 0 && lists.whitelist.length === 0) return undefined;
  // Loaded on demand: servers without a list never pay for the grammar at startup.
  const { BashParser } = await import("./bash_parser.ts");
  const { checkCommandNames, checkShellName } = await import("./command_names.ts");
  const parser = await BashParser.load();
  const copy = { blacklist: [...lists.blacklist], whitelist: [...lists.whitelist] };
  return (command, shell) => {
    if (shell !== null) {
      const decision = checkShellName(shell, copy);
      if (!decision.allow) return decision;
    }
    return checkCommandNames(command, copy, parser);
  };
}
