import type { Confinement } from "../contract/confinement.ts";
import type { SandboxProfile } from "./sandbox_profile.ts";

export type { Confinement };

/** Where an execution runs: its resolved cwd and the resolved allowed roots (may be empty). */
export interface Workspace {
  cwd: string;
  allowedRoots: readonly string[];
}

/**
 * The confinement of `profile` in `workspace`: workspace profiles write the allowed roots, or
 * the cwd when none are set; the cwd and the roots stay visible. A workspace that is the root
 * directory is refused, as making it writable would confine nothing.
 */
export function confine(
  profile: SandboxProfile,
  workspace: Workspace,
): { allow: true; confinement: Confinement } | { allow: false; reason: string } {
  const { cwd } = workspace;
  const roots = unique(workspace.allowedRoots.filter((root) => root !== ""));
  const visible = unique([cwd, ...roots]);
  // Sandboxes exist on POSIX systems only (Windows refuses sandbox modes at startup).
  const relative = visible.find((path) => !path.startsWith("/"));
  if (relative !== undefined) {
    return {
      allow: false,
      reason: `Cannot sandbox a relative path: ${relative}; resolve it first`,
    };
  }
  if (profile.filesystem === "read-only") {
    return { allow: true, confinement: { cwd, network: profile.network, writable: [], visible } };
  }
  // A root inside another is already writable; binding it again would only add a path to race.
  const writable = roots.length > 0 ? outermost(roots) : [cwd];
  if (writable.some((path) => path === "/")) {
    return {
      allow: false,
      reason: "Cannot confine writes to the workspace as it is the root directory /; " +
        "set allowed_cwds to the project directories",
    };
  }
  return { allow: true, confinement: { cwd, network: profile.network, writable, visible } };
}

function outermost(roots: readonly string[]): string[] {
  return roots.filter((root) => !roots.some((other) => other !== root && isWithin(root, other)));
}

function isWithin(path: string, dir: string): boolean {
  return dir === "/" || path.startsWith(`${dir.replace(/\/+$/, "")}/`);
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
