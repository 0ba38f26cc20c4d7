import type { Confinement } from "../contract/confinement.ts";

export type { Confinement };

/** A program and its arguments, as `Platform.shellArgv` returns them. */
export interface Argv {
  program: string;
  args: string[];
}

/** An OS sandbox that is known to work on this machine (its startup probe passed). */
export interface Sandbox {
  /** `bubblewrap` on Linux, `sandbox-exec` on macOS. */
  readonly name: string;
  /**
   * The argv that runs `command` (a shell argv) confined by `confinement`. It starts the
   * command only in `confinement.cwd` (the spawn's cwd), and fails with exit 126 otherwise.
   */
  wrap(command: Argv, confinement: Confinement): Argv;
  /**
   * Whether a command that dies from signal N inside is reported as exit code 128+N (bubblewrap,
   * whose PID 1 exits with its shell's status) rather than as a death by that signal.
   */
  readonly signalExitCodes: boolean;
  /**
   * How long after the spawn the sandbox may still be setting up with stop signals ignored
   * (so that bubblewrap outlives them later): a stop sent then is sent again after it.
   */
  readonly setupMs: number;
  /**
   * Whether everything a command starts lives in a PID namespace that ends when the spawned
   * process exits (bubblewrap), so nothing of it can outlive that exit; false: the command's
   * process group is watched as outside a sandbox.
   */
  readonly endsWithSpawned: boolean;
}

/** The startup check of a sandbox: usable, not wanted (`sandbox: off`), or why it is not usable. */
export type SandboxOpening =
  | { ok: true; sandbox: Sandbox | null }
  | { ok: false; error: string };
