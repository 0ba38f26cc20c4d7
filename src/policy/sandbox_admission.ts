import type { Admission, SandboxGrant } from "../contract/admission.ts";
import { confine } from "./sandbox_confinement.ts";
import { sandboxHint } from "./sandbox_hint.ts";
import { decideSandbox, type SandboxPolicy } from "./sandbox_profile.ts";
import type { SideEffect } from "./side_effects.ts";

/** The sandbox settings and the workspace, as admission needs them. */
export interface PlacementRules extends SandboxPolicy {
  /** The allowed roots, resolved at startup (empty: any cwd, and the cwd is the workspace). */
  allowedRoots: readonly string[];
}

/**
 * The last step of admission: where an admitted command runs. It carries whether its cwd was
 * checked against roots (so the spawn must start exactly there) and, with a sandbox mode, the
 * sandbox it runs in, or the refusal when its declared side effects cannot be confined. Pure;
 * `sideEffects` were validated by the earlier steps.
 */
export function placeExecution(
  admission: Admission,
  sideEffects: readonly string[],
  rules: PlacementRules,
): Admission {
  if (!admission.allow) return admission;
  const placed = { ...admission, cwdChecked: rules.allowedRoots.length > 0 };
  if (rules.mode === "off") return { ...placed, sandbox: null };
  const decision = decideSandbox(sideEffects as readonly SideEffect[], rules);
  if (!decision.allow) return decision;
  const { profile, label } = decision;
  if (profile === null) {
    return { ...placed, sandbox: { label, confinement: null, explain: () => null } };
  }
  const confined = confine(profile, { cwd: admission.cwd, allowedRoots: rules.allowedRoots });
  if (!confined.allow) return confined;
  const grant: SandboxGrant = {
    label,
    confinement: confined.confinement,
    explain: (outcome) => sandboxHint(profile, rules.mode, outcome),
  };
  return { ...placed, sandbox: grant };
}
