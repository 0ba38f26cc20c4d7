/** What the rest of the server may ask of the operating system. */
export interface SpawnRequest {
  /** Shell executable; null means the platform default. */
  shell: string | null;
  /** Command text handed to the shell. */
  command: string;
  /** Working directory, already resolved and checked. */
  cwd: string;
  /** Complete child environment (the platform adds nothing but its containment token). */
  env: Record<string, string>;
  /** Per-execution containment token, placed in the child environment where supported. */
  token: string;
}

/** How a shell process ended. */
export interface ShellExit {
  /** Exit code; for a signal death, the negated signal number (the contract's convention). */
  exitCode: number | null;
  /** Signal name when the shell died from a signal, else null. */
  signal: string | null;
}

/** A spawned shell in its own process group (POSIX) or process tree (Windows). */
export interface SpawnedProcess {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** Settles when the shell itself exits. */
  readonly exited: Promise<ShellExit>;
}

/** The operating-system adapter; `src/platform/mod.ts` picks one at startup. */
export interface Platform {
  readonly name: "posix" | "windows";
  /** Separator of `YIELDSHELL_ALLOWED_CWDS`. */
  readonly pathListSeparator: ":" | ";";
  /** Path separator used when resolving working directories. */
  readonly pathSeparator: "/" | "\\";
  /** Name of the environment variable that carries the containment token, or null. */
  readonly tokenVariable: string | null;
  /** Signals that ask the server to shut down gracefully. */
  readonly shutdownSignals: readonly Deno.Signal[];
  /** The shell used when neither the call nor the configuration names one. */
  defaultShell(env: Record<string, string>): string;
  /** The argv that runs `command` through `shell`. */
  shellArgv(shell: string, command: string): { program: string; args: string[] };
  /** Starts the shell in a new process group; throws with the OS error text on failure. */
  spawn(request: SpawnRequest): SpawnedProcess;
  /** Whether a signal name is deliverable here (`SIGTERM`, ...). */
  isSignalSupported(signal: string): boolean;
  /**
   * Sends `signal` to the whole group (and, on Windows, kills the tree).
   * Returns false when the group no longer exists.
   */
  signalGroup(pid: number, signal: string): boolean;
  /** Sends `signal` to single processes, ignoring ones already gone. */
  signalProcesses(pids: readonly number[], signal: string): void;
  /**
   * Hands a new execution to a watchdog that outlives the server and kills its
   * group (and token holders) should the server die without stopping it.
   */
  guard(pid: number, token: string): void;
  /** The group is gone: the watchdog forgets it (its pgid may be reused). */
  releaseGroup(pid: number): void;
  /** The record is removed: the watchdog stops tracking its token. */
  releaseToken(token: string): void;
  /** Whether a live (non-zombie) process remains in the group of `pid`. */
  isGroupAlive(pid: number): Promise<boolean>;
  /**
   * Live processes that carry each token in their environment (Linux
   * containment: they may have left the group with setsid); empty elsewhere.
   * Concurrent calls may share one look at the process table.
   */
  findTokenHolders(tokens: readonly string[]): Promise<Map<string, number[]>>;
}
