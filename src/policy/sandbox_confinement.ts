import type { SandboxProfile } from "./sandbox_profile.ts";

/**
 * What the OS sandbox of one execution must open, in paths: the platform's builders
 * (bubblewrap, sandbox-exec) turn it into their own terms. Every path is absolute and resolved.
 */
export interface Confinement {
  /** The execution's working directory. */
  cwd: string;
  /** Whether the execution shares the host network. */
  network: boolean;
  /** Directories the execution may write (besides its private /tmp). */
  writable: string[];
  /** Directories that stay visible read-only even where the sandbox hides their parent (/tmp). */
  visible: string[];
}

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
  const writable = roots.length > 0 ? roots : [cwd];
  if (writable.some((path) => path === "/")) {
    return {
      allow: false,
      reason: "Cannot confine writes to the workspace as it is the root directory /; " +
        "set allowed_cwds to the project directories",
    };
  }
  return { allow: true, confinement: { cwd, network: profile.network, writable, visible } };
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
