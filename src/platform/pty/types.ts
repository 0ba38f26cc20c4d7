import type { ShellExit } from "../../core/process.ts";
import type { TerminalSpawnRequest, TerminalState } from "../../core/terminal_port.ts";

/**
 * A command to run with a pseudo-terminal as its controlling terminal and stdin/stdout/stderr
 * (cols and rows 1..65535); `env` is the child's whole environment.
 */
export type PtySpawnRequest = TerminalSpawnRequest;

/** What the terminal's line discipline is doing now (read from the master). */
export interface PtyState extends TerminalState {
  /** The terminal's foreground process group, or null where the OS does not tell the master. */
  foregroundGroup: number | null;
}

/** A program running on a pseudo-terminal, leader of its own session and process group. */
export interface PtyProcess extends AsyncDisposable {
  /** The session leader: pid == pgid == sid. */
  readonly pid: number;
  /**
   * Everything the program writes to the terminal, raw (escape sequences kept). Ends once every
   * process holding the terminal has closed it (read returns EIO), or at `close()`.
   */
  readonly output: ReadableStream<Uint8Array>;
  /** Settles when the session leader exits. */
  readonly exited: Promise<ShellExit>;
  /** Types bytes into the terminal (the line discipline turns `\x03` into SIGINT, ...). */
  write(bytes: Uint8Array): Promise<void>;
  /** Sets the window size; the kernel sends SIGWINCH to the foreground process group. */
  resize(cols: number, rows: number): void;
  /** Echo, canonical mode and foreground group of the terminal now. */
  state(): PtyState;
  /**
   * Sends `signal` to the leader's process group and to the terminal's foreground group when
   * that differs (a job of an interactive shell). Returns false when neither exists any more.
   */
  signal(signal: string): boolean;
  /**
   * Sends `signal` to every process still in the terminal's session (background jobs of an
   * interactive shell live in groups of their own), through `pkill -s`.
   * Returns whether any process got it.
   */
  signalSession(signal: string): Promise<boolean>;
  /**
   * Hangs up: closes the master (the kernel sends SIGHUP to the session, as when a terminal
   * window closes), ends `output` and frees the descriptors. Idempotent.
   */
  close(): Promise<void>;
}

/** Opens pseudo-terminals; `src/platform/mod.ts` builds the one for this OS. */
export interface PtyBackend {
  /** Why a terminal cannot be opened here (a missing `--allow-ffi`, Windows), or null. */
  unavailable(): string | null;
  /** Starts the program on a new terminal; throws with a clear reason when it cannot. */
  spawn(request: PtySpawnRequest): PtyProcess;
}
