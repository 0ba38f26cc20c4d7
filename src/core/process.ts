import type { Confinement } from "../contract/confinement.ts";

/**
 * The core's port to the operating system: it declares what it needs, and `src/platform/`
 * implements it for POSIX and Windows (the adapters import these types, never the reverse).
 */

/** One command to start. */
export interface SpawnRequest {
  /** Shell executable that runs `command`. */
  shell: string;
  /** Command text handed to the shell. */
  command: string;
  /** Working directory, already resolved and checked. */
  cwd: string;
  /** Complete child environment; the adapter adds only what containment needs. */
  env: Record<string, string>;
  /**
   * The cwd passed a policy check: the shell must start exactly there, and fail (exit 126)
   * when the path was swapped for something else after the check. @default {false}
   */
  cwdChecked?: boolean;
  /**
   * Run inside the OS sandbox with this confinement (its cwd is `cwd`, and it is always
   * checked). Null or absent: unconfined. An adapter without a sandbox refuses to spawn.
   */
  confinement?: Confinement | null;
  /**
   * Whether `env` is the server's own (the call set no variables) and the start is on pipes,
   * so the adapter may start a process ahead of time for the next start like this one.
   * @default {false}
   */
  reusable?: boolean;
}

/** How the shell ended. */
export interface ShellExit {
  /** Exit code; for a signal death, the negated signal number (the contract's convention). */
  exitCode: number | null;
  /** Signal name when the shell died from a signal, else null. */
  signal: string | null;
}

/** A started shell and everything it starts: its process group (POSIX) or tree (Windows). */
export interface ProcessTree {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** Settles when the shell itself exits; rejects when its status cannot be known. */
  readonly exited: Promise<ShellExit>;
  /** Settles once no process of the tree is left (after `exited`); never rejects. */
  readonly ended: Promise<void>;
  /** Sends `signal` to every process of the tree, descendants that left it included. */
  signal(signal: string): Promise<void>;
  /** The record is gone: stop containing the tree's descendants. Idempotent. */
  release(): void;
}

/** Starts and contains process trees. */
export interface ProcessControl {
  /** Starts `request.shell`; throws with a `failed_to_start` text when the OS refuses. */
  spawn(request: SpawnRequest): ProcessTree;
  /** Whether a canonical signal name (`SIGTERM`, ...) is deliverable here. */
  supportsSignal(signal: string): boolean;
  /**
   * Stops what is left of `trees` after their groups ended: descendants that left them
   * (`setsid` daemons) get SIGTERM, then SIGKILL after `graceMs`. Resolves when done.
   */
  sweep(trees: readonly ProcessTree[], graceMs: number): Promise<void>;
  /**
   * The answer to a call that started a tree is on its way: a moment for work that would
   * otherwise delay it (POSIX: start the standby for the next start). Optional.
   */
  prepareNext?(): void;
}
