import type { Decision } from "../decision.ts";
import { quoteName } from "./messages.ts";

/** The command-name lists; a non-empty whitelist wins over the blacklist. */
export interface NameLists {
  blacklist: readonly string[];
  whitelist: readonly string[];
}

/**
 * Shell builtins that cannot run another program, allowed by a whitelist without being listed:
 * as bare names the shell runs its builtin. (`exec`, `command`, `builtin`, `eval`, `source`,
 * `trap`, `kill` and the like are not among them.) Their arguments are still read: `read PATH`
 * and `printf -v 'a[$(rm x)]'` are refused.
 */
export const SAFE_BUILTINS: ReadonlySet<string> = new Set([
  ":",
  "true",
  "false",
  "cd",
  "pwd",
  "pushd",
  "popd",
  "dirs",
  "echo",
  "printf",
  "test",
  "[",
  "read",
  "export",
  "unset",
  "readonly",
  "declare",
  "typeset",
  "local",
  "set",
  "shift",
  "exit",
  "return",
  "break",
  "continue",
  "wait",
  "getopts",
  "umask",
  "ulimit",
  "times",
  "type",
  "let",
  "shopt",
  "unalias",
  "help",
  "caller",
]);

/** The list in force. */
export type Mode = "blacklist" | "whitelist";

/** The list in force, or null when both lists are empty. */
export function listMode(lists: NameLists): Mode | null {
  if (lists.whitelist.length > 0) return "whitelist";
  if (lists.blacklist.length > 0) return "blacklist";
  return null;
}

/**
 * Checks one command name against the list in force. Matching rules (documented in the README):
 * - blacklist: a name is blocked when its basename equals the basename of an entry, ignoring
 *   ASCII case (`/bin/RM` is blocked by `rm` and by `/usr/bin/rm`), so paths and
 *   case-insensitive file systems cannot dodge it;
 * - whitelist: a name is allowed only when it equals an entry exactly as written: a bare entry
 *   (`ls`) allows the bare name looked up on PATH, an entry with a slash allows that path only.
 */
export function checkName(name: string, lists: NameLists, mode: Mode): Decision {
  if (mode === "blacklist") {
    const key = blacklistKey(name);
    if (lists.blacklist.some((entry) => blacklistKey(entry) === key)) {
      return { allow: false, reason: `Command ${quoteName(name)} is blocked by the blacklist` };
    }
    return { allow: true };
  }
  if (lists.whitelist.includes(name) || SAFE_BUILTINS.has(name)) return { allow: true };
  const base = basename(name);
  const bare = name.includes("/") && lists.whitelist.includes(base);
  const hint = bare
    ? `; the entry ${quoteName(base)} allows only the bare name, so list ${
      quoteName(name)
    } to allow that path`
    : "";
  return { allow: false, reason: `Command ${quoteName(name)} is not in the whitelist${hint}` };
}

/** The last path component of a command name. */
export function basename(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1);
}

/** The form in which names and blacklist entries are compared. */
export function blacklistKey(name: string): string {
  // zsh runs `=rm` as the path of rm; the leading `=` is dropped for the comparison.
  return basename(name).replace(/^=+/, "").toLowerCase();
}
