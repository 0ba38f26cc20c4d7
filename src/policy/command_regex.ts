import { errorText } from "../contract/error_text.ts";
import type { Decision } from "./decision.ts";
import { translatePythonPattern } from "./python_pattern.ts";

/** Compiled deny and allow patterns; null disables that check. */
export interface CommandRegexRules {
  /** A command that matches anywhere is denied. */
  deny: RegExp | null;
  /** When set, a command must match somewhere to be allowed. */
  allow: RegExp | null;
}

/**
 * Compiles a Python `re` pattern for an unanchored search. Translated: `(?P<name>...)`,
 * `(?P=name)`, `(?#...)`, `\A`, `\Z`, `\a`, `\U0001F600`, `{,n}`, leading `(?i)`/`(?m)`/`(?s)`
 * (also scoped, `(?i:...)`), and Python's meaning of `.`, `^` and `$`. Throws an Error whose
 * message is the reason, for patterns that are invalid or use unsupported syntax (`(?x)`,
 * conditionals, atomic groups, `\N{...}`).
 */
export function compilePattern(source: string): RegExp {
  const { pattern, flags } = translatePythonPattern(source);
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    throw new Error(engineReason(error));
  }
}

/** Deny first, then allow; both search anywhere in the command. The command is never echoed. */
export function checkCommandRegex(command: string, rules: CommandRegexRules): Decision {
  if (rules.deny !== null && command.search(rules.deny) !== -1) {
    return { allow: false, reason: "Command denied by policy" };
  }
  if (rules.allow !== null && command.search(rules.allow) === -1) {
    return { allow: false, reason: "Command not allowed by policy" };
  }
  return { allow: true };
}

/** Checks an explicit `shell` string: it must not be blank and must pass the command regexes. */
export function checkShellRegex(shell: string, rules: CommandRegexRules): Decision {
  if (shell.trim() === "") return { allow: false, reason: "Shell executable must not be empty" };
  const decision = checkCommandRegex(shell, rules);
  if (decision.allow) return decision;
  return { allow: false, reason: `Shell rejected by policy: ${decision.reason}` };
}

function engineReason(error: unknown): string {
  const message = errorText(error);
  const match = /^Invalid regular expression: \/[\s\S]*\/[a-z]*: ([\s\S]*)$/.exec(message);
  return match === null ? message : match[1];
}
