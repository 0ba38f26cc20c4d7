/**
 * What an OS sandbox must open for one execution, in paths (policy's `confine()` computes it).
 * Every path is absolute and resolved (symlinks followed).
 */
export interface Confinement {
  /** The execution's working directory. */
  cwd: string;
  /** Whether the execution shares the host network. */
  network: boolean;
  /** Directories the execution may write (besides its private /tmp). */
  writable: readonly string[];
  /** Directories that stay visible read-only even where the sandbox hides their parent (/tmp). */
  visible: readonly string[];
}

/** A program and its arguments, as `Platform.shellArgv` returns them. */
export interface Argv {
  program: string;
  args: string[];
}

/** An OS sandbox that is known to work on this machine (its startup probe passed). */
export interface Sandbox {
  /** `bubblewrap` on Linux, `sandbox-exec` on macOS. */
  readonly name: string;
  /** The argv that runs `command` (a shell argv) confined by `confinement`. */
  wrap(command: Argv, confinement: Confinement): Argv;
}

/** The startup check of a sandbox: usable, not wanted (`sandbox: off`), or why it is not usable. */
export type SandboxOpening =
  | { ok: true; sandbox: Sandbox | null }
  | { ok: false; error: string };
