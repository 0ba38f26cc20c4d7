import type { Decision } from "./decision.ts";
import { pythonRepr } from "../contract/python_repr.ts";

/** Every side-effect category an `execute` call can declare, in alphabetical order. */
export const SIDE_EFFECTS = [
  "CHANGES_NETWORK_CONFIGURATION",
  "CHANGES_PACKAGES_OR_DEPENDENCIES",
  "CONSUMES_SIGNIFICANT_RESOURCES",
  "DELETES_FILES",
  "EXPOSES_SECRETS",
  "KILLS_AGENT_PROCESS",
  "MAKES_NETWORK_REQUESTS",
  "MODIFIES_OS_SETTINGS",
  "MODIFIES_OS_USER_SETTINGS",
  "MODIFIES_OUTSIDE_WORKSPACE",
  "MODIFIES_PRODUCTION_SERVICES",
  "MODIFIES_PROTECTED_FILES",
  "MODIFIES_SECURITY_CONTROLS",
  "MODIFIES_WORKSPACE_FILES",
  "NONE",
  "OTHER",
  "RUNS_INLINE_CODE",
  "RUNS_PRIVILEGED_COMMANDS",
  "STOPS_OR_RESTARTS_SERVICES",
  "UNKNOWN",
  "USES_DESTRUCTIVE_GIT_OPERATION",
] as const;

/** One side-effect category name (case-sensitive). */
export type SideEffect = typeof SIDE_EFFECTS[number];

/** Categories blocked when `MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS` is unset or empty. */
export const DEFAULT_BLOCKED_SIDE_EFFECTS: readonly SideEffect[] = [
  "KILLS_AGENT_PROCESS",
  "MODIFIES_OS_SETTINGS",
  "MODIFIES_OS_USER_SETTINGS",
  "MODIFIES_PROTECTED_FILES",
  "RUNS_INLINE_CODE",
];

/** The environment variable that configures the blocklist. */
export const BLOCKED_SIDE_EFFECTS_VAR = "MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS";

const SIDE_EFFECT_SET: ReadonlySet<string> = new Set(SIDE_EFFECTS);

const GUIDANCE: Readonly<Partial<Record<SideEffect, string>>> = {
  MODIFIES_PROTECTED_FILES:
    "Do not modify protected files; use a workspace-scoped path or ask the operator to update the policy via MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS.",
  MODIFIES_OS_SETTINGS:
    "Do not change OS-level configuration such as systemd units, kernel parameters, /etc files, package manager system config, or global service defaults; re-declare with a safer category or request an explicit policy override.",
  MODIFIES_OS_USER_SETTINGS:
    "Do not change user-level configuration such as shell rc files, XDG config directories, dotfiles, or per-user application preferences; re-declare with a safer category or request an explicit policy override.",
  DELETES_FILES:
    "Avoid deletion; prefer reversible edits, or request explicit confirmation when deletion is truly required.",
  RUNS_INLINE_CODE:
    "Do not execute code supplied inline to an interpreter or shell (e.g. python -c, node -e, curl ... | sh); create or edit a reviewable workspace file and execute it in a small, inspectable step.",
  KILLS_AGENT_PROCESS:
    "Do not run commands that may terminate the MCP client, agent, or related process running the agent workflow; re-declare with a safer category or request an explicit policy override.",
};

const FALLBACK_GUIDANCE = "re-declare with an allowed category or update operator policy.";

/** True when `value` is a canonical category name. */
export function isSideEffect(value: string): value is SideEffect {
  return SIDE_EFFECT_SET.has(value);
}

/** The safer next action quoted in a blocked message for `category`. */
export function blockedGuidance(category: string): string {
  return (isSideEffect(category) ? GUIDANCE[category] : undefined) ?? FALLBACK_GUIDANCE;
}

/**
 * Validates an `execute` call's declared categories against the blocklist, in the contract's
 * order: canonical names, non-empty, `NONE` exclusive, then blocked categories.
 */
export function checkSideEffects(
  declared: readonly string[],
  blocked: ReadonlySet<string>,
): Decision {
  const unknown = declared.find((entry) => !isSideEffect(entry));
  if (unknown !== undefined) {
    return {
      allow: false,
      reason: `Invalid side_effects: ${pythonRepr(unknown)} is not a valid SideEffect`,
    };
  }
  if (declared.length === 0) {
    return {
      allow: false,
      reason: 'side_effects must not be empty; pass ["NONE"] for commands with no side effects',
    };
  }
  const others = declared.filter((entry) => entry !== "NONE");
  if (others.length < declared.length && others.length > 0) {
    return {
      allow: false,
      reason: "side_effects=NONE is exclusive and cannot be combined with other categories: " +
        `[${others.map(pythonRepr).join(", ")}]`,
    };
  }
  const hits = declared.filter((entry) => blocked.has(entry));
  if (hits.length > 0) return { allow: false, reason: blockedMessage(hits) };
  return { allow: true };
}

function blockedMessage(hits: readonly string[]): string {
  return [
    `Side-effect category blocked by policy: ${hits.join(", ")}.`,
    "Execution was stopped by policy before the process started.",
    ...hits.map((name) => `${name}: ${blockedGuidance(name)}`),
  ].join(" ");
}

/** A parsed blocklist, or the startup error that names the offending values. */
export type BlockedSideEffectsResult =
  | { value: SideEffect[]; warning?: string }
  | { error: string };

/**
 * Parses `MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS`: unset or empty keeps the defaults; otherwise a
 * comma-separated list that replaces them (`,` blocks nothing). A whitespace-only value keeps
 * the defaults and returns a warning, since it is almost certainly a failed attempt to clear.
 */
export function parseBlockedSideEffects(raw: string | undefined): BlockedSideEffectsResult {
  if (raw === undefined || raw === "") return { value: [...DEFAULT_BLOCKED_SIDE_EFFECTS] };
  if (raw.trim() === "") {
    return {
      value: [...DEFAULT_BLOCKED_SIDE_EFFECTS],
      warning: `${BLOCKED_SIDE_EFFECTS_VAR} is whitespace-only, so it cleared nothing and ` +
        `the default blocklist stays in effect (${DEFAULT_BLOCKED_SIDE_EFFECTS.join(", ")}); ` +
        'set it to "," to block no category, or list the categories to block',
    };
  }
  const entries = raw.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  return validateSideEffectNames(entries, BLOCKED_SIDE_EFFECTS_VAR);
}

/**
 * Checks configured category names (case-sensitive); `source` names the variable or config key
 * in the error. Duplicates are dropped, keeping the first occurrence.
 */
export function validateSideEffectNames(
  entries: readonly string[],
  source: string,
): { value: SideEffect[] } | { error: string } {
  const invalid = [...new Set(entries.filter((entry) => !isSideEffect(entry)))];
  if (invalid.length > 0) {
    return {
      error: `${source} contains invalid value(s): ${invalid.map(pythonRepr).join(", ")}. ` +
        `Valid values (case-sensitive): ${[...SIDE_EFFECTS].sort().join(", ")}.`,
    };
  }
  return { value: [...new Set(entries.filter(isSideEffect))] };
}
