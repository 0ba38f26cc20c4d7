import type { Decision } from "../decision.ts";
import { readsBash } from "../shell_grammar.ts";
import { quoteName, UNKNOWN_SUFFIX } from "./messages.ts";
import { checkName, listMode, type NameLists } from "./name_lists.ts";

/**
 * Checks the explicit `shell` parameter: it is a command name too, and it must read bash,
 * since the names of anything else cannot be found with the bash grammar.
 */
export function checkShellName(shell: string, lists: NameLists): Decision {
  const mode = listMode(lists);
  if (mode === null) return { allow: true };
  const listed = checkName(shell, lists, mode);
  if (!listed.allow) return { allow: false, reason: listed.reason.replace(/^Command/, "Shell") };
  return checkShellGrammar(shell);
}

/**
 * Whether a shell reads bash syntax, so that the names in its commands can be found; the
 * operator's default shell is held to this alone, not to the lists.
 */
export function checkShellGrammar(shell: string): Decision {
  if (readsBash(shell)) return { allow: true };
  return {
    allow: false,
    reason: `Shell ${
      quoteName(shell)
    } does not read bash syntax, so the names of the commands it runs cannot be determined statically${UNKNOWN_SUFFIX}`,
  };
}
