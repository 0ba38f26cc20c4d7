import { DEFAULT_BLOCKED_SIDE_EFFECTS, SIDE_EFFECTS } from "../policy/side_effects.ts";
import type { Settings } from "./setting.ts";
import { pattern, PATTERN_EXPECTED } from "./value_schemas.ts";

/** What may run and what output hides: regexes, redaction, side effects. */
export const POLICY_SETTINGS: Pick<
  Settings,
  "denyCommandRegex" | "allowCommandRegex" | "redactEnvRegex" | "blockedSideEffects"
> = {
  denyCommandRegex: {
    fileKey: "deny_command_regex",
    env: "YIELDSHELL_DENY_COMMAND_REGEX",
    flag: "deny-command-regex",
    valueName: "regex",
    schema: pattern,
    expected: PATTERN_EXPECTED,
    default: () => null,
    description:
      "Refuse, before they start, commands in which this regular expression finds a match (an unanchored search). It applies to an explicit shell too. Empty: off.",
  },
  allowCommandRegex: {
    fileKey: "allow_command_regex",
    env: "YIELDSHELL_ALLOW_COMMAND_REGEX",
    flag: "allow-command-regex",
    valueName: "regex",
    schema: pattern,
    expected: PATTERN_EXPECTED,
    default: () => null,
    description:
      "When set, allow only commands in which this regular expression finds a match; checked after the deny regex. It applies to an explicit shell too. Empty: off.",
  },
  redactEnvRegex: {
    fileKey: "redact_env_regex",
    env: "YIELDSHELL_REDACT_ENV_REGEX",
    flag: "redact-env-regex",
    valueName: "regex",
    schema: pattern,
    expected: PATTERN_EXPECTED,
    default: () => null,
    description:
      "Turns redaction on: values of 8 or more characters of the environment variables whose names match are replaced in output by [REDACTED:NAME]. Empty: off.",
  },
  blockedSideEffects: {
    fileKey: "blocked_side_effects",
    env: "MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS",
    flag: "blocked-side-effects",
    valueName: "names",
    form: "sideEffects",
    schema: (z) => z.array(z.enum(SIDE_EFFECTS)).transform((names) => [...new Set(names)]),
    expected: `a list of side-effect names (case-sensitive): ${
      [...SIDE_EFFECTS].sort().join(", ")
    }`,
    default: () => [...DEFAULT_BLOCKED_SIDE_EFFECTS],
    description:
      'Categories of side_effects that execute refuses. A list replaces the defaults; an empty list blocks nothing. The flag and the variable take comma-separated names, and "," blocks nothing (so does an empty flag); an empty or blank variable keeps the defaults.',
  },
};
