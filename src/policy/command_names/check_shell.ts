import type { Decision } from "../decision.ts";
import { readsBash } from "../shell_grammar.ts";
import { quoteName, UNKNOWN_SUFFIX } from "./messages.ts";
import { listMode, type NameLists } from "./name_lists.ts";

/** What the explicit `shell` is checked against. */
export interface ShellRules {
  /** The shell commands run in when the call names none (`--shell`, or the platform's). */
  defaultShell: string;
  /** The real path of a file (links followed), or null when it does not exist. */
  realPath(path: string): string | null;
}

/**
 * Checks the explicit `shell` parameter while a list is set: it must be the configured shell,
 * or (under a whitelist) an absolute path the whitelist lists, and its real path must read
 * bash, since the names of anything else cannot be found with the bash grammar. A link named
 * `sh` that points to python3 is refused: it is neither configured nor a bash-like shell.
 */
export function checkShellName(shell: string, lists: NameLists, rules: ShellRules): Decision {
  const mode = listMode(lists);
  if (mode === null || shell === rules.defaultShell) return { allow: true };
  const listed = mode === "whitelist" && /^(\/|[A-Za-z]:\\)/.test(shell) &&
    lists.whitelist.includes(shell);
  if (!listed) {
    const also = mode === "whitelist" ? " or an absolute path the whitelist lists" : "";
    return {
      allow: false,
      reason: `Shell ${
        quoteName(shell)
      } is not a configured shell: while a blacklist or whitelist is set, commands run only in ${
        quoteName(rules.defaultShell)
      }${also}; omit shell`,
    };
  }
  const real = rules.realPath(shell);
  if (real === null) {
    return { allow: false, reason: `Shell ${quoteName(shell)} does not exist; omit shell` };
  }
  return checkShellGrammar(real, shell);
}

/**
 * Whether a shell reads bash syntax, so that the names in its commands can be found. `shell`
 * is the real path; `given` the name it was given as, for the message.
 */
export function checkShellGrammar(shell: string, given: string = shell): Decision {
  if (readsBash(shell)) return { allow: true };
  const resolved = given === shell ? "" : ` (${quoteName(shell)})`;
  return {
    allow: false,
    reason: `Shell ${
      quoteName(given)
    }${resolved} does not read bash syntax, so the names of the commands it runs cannot be determined statically${UNKNOWN_SUFFIX}`,
  };
}
