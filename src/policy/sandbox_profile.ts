import type { SideEffect } from "./side_effects.ts";

/** How executions are sandboxed: not at all, as declared, or always inside the workspace. */
export const SANDBOX_MODES = ["off", "declared", "strict"] as const;

/** One sandbox mode (the `sandbox` setting). */
export type SandboxMode = typeof SANDBOX_MODES[number];

/**
 * What the OS lets a sandboxed execution do. Reading stays open everywhere; `/tmp` is always a
 * private writable directory; `workspace-writable` also opens the workspace roots for writing.
 */
export interface SandboxProfile {
  filesystem: "read-only" | "workspace-writable";
  /** Whether the execution shares the host's network; off means loopback of its own only. */
  network: boolean;
}

/** What one side-effect category needs from the sandbox. */
export interface CategoryRule extends SandboxProfile {
  /** False when no profile can grant it without granting everything (it runs unconfined). */
  confinable: boolean;
}

const READ: CategoryRule = { filesystem: "read-only", network: false, confinable: true };
const WRITE: CategoryRule = { filesystem: "workspace-writable", network: false, confinable: true };
const NET: CategoryRule = { filesystem: "read-only", network: true, confinable: true };
const WRITE_NET: CategoryRule = {
  filesystem: "workspace-writable",
  network: true,
  confinable: true,
};
const OUTSIDE: CategoryRule = {
  filesystem: "workspace-writable",
  network: false,
  confinable: false,
};

/**
 * The one table from declared side effects to sandbox profiles (the README repeats it). An
 * execution gets the union of its categories' rows. Unconfinable rows name effects outside
 * anything the sandbox can scope (other processes, the OS, services, files outside the
 * workspace, or nothing known): `declared` runs them unconfined only with the operator's
 * consent; `strict` runs them as their row says, inside the workspace, without network.
 */
export const SANDBOX_TABLE: Readonly<Record<SideEffect, CategoryRule>> = {
  NONE: READ,
  CONSUMES_SIGNIFICANT_RESOURCES: READ,
  EXPOSES_SECRETS: READ,
  RUNS_INLINE_CODE: READ,
  MODIFIES_WORKSPACE_FILES: WRITE,
  DELETES_FILES: WRITE,
  USES_DESTRUCTIVE_GIT_OPERATION: WRITE,
  MAKES_NETWORK_REQUESTS: NET,
  CHANGES_PACKAGES_OR_DEPENDENCIES: WRITE_NET,
  CHANGES_NETWORK_CONFIGURATION: OUTSIDE,
  KILLS_AGENT_PROCESS: OUTSIDE,
  MODIFIES_OS_SETTINGS: OUTSIDE,
  MODIFIES_OS_USER_SETTINGS: OUTSIDE,
  MODIFIES_OUTSIDE_WORKSPACE: OUTSIDE,
  MODIFIES_PRODUCTION_SERVICES: OUTSIDE,
  MODIFIES_PROTECTED_FILES: OUTSIDE,
  MODIFIES_SECURITY_CONTROLS: OUTSIDE,
  RUNS_PRIVILEGED_COMMANDS: OUTSIDE,
  STOPS_OR_RESTARTS_SERVICES: OUTSIDE,
  OTHER: OUTSIDE,
  UNKNOWN: OUTSIDE,
};

/** The categories no profile confines, in alphabetical order (values of `allow_unconfined`). */
export const UNCONFINABLE_SIDE_EFFECTS: readonly SideEffect[] = (
  Object.keys(SANDBOX_TABLE) as SideEffect[]
).filter((name) => !SANDBOX_TABLE[name].confinable).sort();

/** The operator's sandbox settings, as the decision needs them. */
export interface SandboxPolicy {
  mode: SandboxMode;
  /** Unconfinable categories the operator lets run without a sandbox under `declared`. */
  allowUnconfined: ReadonlySet<string>;
}

/**
 * How one execution runs: in a sandbox with `profile`, without one (`profile: null`, because
 * the mode is off or the operator consented), or not at all. `label` names it for results.
 */
export type SandboxDecision =
  | { allow: true; profile: SandboxProfile | null; label: string }
  | { allow: false; reason: string };

/** The label results carry for a profile: `read-only, no network`, `unconfined`, `off`. */
export function profileLabel(profile: SandboxProfile | null, mode: SandboxMode): string {
  if (profile === null) return mode === "off" ? "off" : "unconfined";
  return `${profile.filesystem}, ${profile.network ? "network" : "no network"}`;
}

/**
 * Picks the sandbox of an execution from its (already validated) side effects. Pure; a refusal
 * names the categories and the setting that would allow them.
 */
export function decideSandbox(
  declared: readonly SideEffect[],
  policy: SandboxPolicy,
): SandboxDecision {
  if (policy.mode === "off") return { allow: true, profile: null, label: "off" };
  const rules = declared.map((name) => SANDBOX_TABLE[name]);
  const unconfinable = declared.filter((name) => !SANDBOX_TABLE[name].confinable);
  if (policy.mode === "declared" && unconfinable.length > 0) {
    const refused = unconfinable.filter((name) => !policy.allowUnconfined.has(name));
    if (refused.length > 0) return { allow: false, reason: refusal(refused) };
    return { allow: true, profile: null, label: "unconfined" };
  }
  const profile: SandboxProfile = {
    filesystem: rules.some((rule) => rule.filesystem === "workspace-writable")
      ? "workspace-writable"
      : "read-only",
    network: rules.some((rule) => rule.network),
  };
  return { allow: true, profile, label: profileLabel(profile, policy.mode) };
}

function refusal(names: readonly string[]): string {
  const list = names.join(", ");
  return `Cannot run a command declaring ${list} under sandbox: declared, as the sandbox ` +
    "cannot confine it; declare only categories the sandbox confines, or ask the operator to " +
    `allow it unconfined with allow_unconfined (--allow-unconfined ${names.join(",")}, ` +
    "YIELDSHELL_ALLOW_UNCONFINED)";
}
