/**
 * The core's port to pseudo-terminals (`tty: true`): a terminal execution is a process tree
 * whose one output stream is the terminal, plus the few things only a terminal has.
 * `src/platform/pty/` implements it for Linux and macOS.
 */
import type { ProcessTree, SpawnRequest } from "./process.ts";

/** A command to run with a new pseudo-terminal as its controlling terminal. */
export interface TerminalSpawnRequest extends SpawnRequest {
  /** Terminal width in columns. */
  cols: number;
  /** Terminal height in rows. */
  rows: number;
}

/** What the terminal's line discipline is doing now. */
export interface TerminalState {
  /** Typed characters are echoed; off at password prompts and in a line editor's raw mode. */
  echo: boolean;
  /** Line-by-line input; off in raw mode (line editors, full-screen programs). */
  canonical: boolean;
}

/**
 * A shell on a pseudo-terminal, leader of its own session: `stdout` is everything the terminal
 * shows (raw), `stderr` is empty, `stdin` types into the terminal (closing it sends nothing),
 * `signal` reaches the leader's group, the foreground job, the whole session and the tree's
 * token holders, `ended` settles once no process of the session is left, and `release` hangs
 * the terminal up.
 */
export interface TerminalTree extends ProcessTree {
  /** Sets the window size (the foreground job gets SIGWINCH); throws once the terminal is closed. */
  resize(cols: number, rows: number): void;
  /** The line discipline now, or null once the terminal is closed. */
  state(): TerminalState | null;
}

/** Opens pseudo-terminals. */
export interface TerminalControl {
  /** Why no terminal can be opened here (no ffi permission, Windows), or null. */
  unavailable(): string | null;
  /** Starts `request.shell` on a new terminal; throws with a `failed_to_start` text. */
  spawn(request: TerminalSpawnRequest): TerminalTree;
}
