import type { AwaitingInputReason } from "../contract/results.ts";
import {
  DEFAULT_PROMPT_IDLE_MS,
  detectAwaitingInput,
  isSecretInput,
} from "../terminal/awaiting_input.ts";
import type * as Screen from "../terminal/terminal_screen.ts";
import type { ScreenSnapshot, TerminalScreen } from "../terminal/terminal_screen.ts";
import { SecretInputs, TTY_INPUT_SECRET } from "../terminal/secret_inputs.ts";
import type { GrowingRedaction } from "./growing_redaction.ts";
import type { OutputLog } from "./output_log.ts";
import type { TerminalState, TerminalTree } from "./terminal_port.ts";

/** The terminal emulator's module (xterm), imported on first use; see `#newScreen`. */
const SCREEN_MODULE = "../terminal/terminal_screen.ts";

/** Most bytes fed to the screen per log read while it catches up. */
const FEED_CHUNK_BYTES = 1 << 20;

/** A terminal's size. */
export interface TerminalSize {
  cols: number;
  rows: number;
}

/**
 * The terminal side of one execution: its size, the rendered screen (a headless emulator fed
 * from the redacted output log on demand, so an execution nobody views as a screen costs
 * nothing, and the emulator is loaded on first use), and what the line discipline says.
 */
export class TerminalSession implements Disposable {
  readonly tree: TerminalTree;
  #size: TerminalSize;
  #redaction: GrowingRedaction;
  #secrets = new SecretInputs();
  #screen: TerminalScreen | null = null;
  /** The log position the screen has been fed up to. */
  #fedSeq = 1;
  /** Catch-ups run one after another. */
  #feeding: Promise<unknown> = Promise.resolve();
  /** `latest_seq` when a result last said the program awaits input. */
  #reportedSeq: number | null = null;
  #disposed = false;

  /** `redaction` is the execution's: what is typed at a password prompt joins it. */
  constructor(tree: TerminalTree, size: TerminalSize, redaction: GrowingRedaction) {
    this.tree = tree;
    this.#size = { ...size };
    this.#redaction = redaction;
  }

  /** Whether the screen emulator has been started (it is, on first need). */
  get screenStarted(): boolean {
    return this.#screen !== null;
  }

  get size(): TerminalSize {
    return { ...this.#size };
  }

  /** The line discipline now, or null once the terminal is closed. */
  state(): TerminalState | null {
    return this.tree.state();
  }

  /**
   * Notes text about to be typed: at a password prompt (echo off in line mode) each of its
   * lines becomes a secret of the execution's redaction, so it never appears in results,
   * logs or `ps`, even if the program prints it later. Call before typing it.
   */
  noteTyped(text: string): void {
    const state = this.tree.state();
    if (state === null || !this.#secrets.note(text, state)) return;
    for (const secret of this.#secrets.secrets) {
      this.#redaction.add({ name: TTY_INPUT_SECRET, value: secret.value });
    }
  }

  /** Sets a new size on the terminal and the screen; throws once the terminal is closed. */
  resize(size: TerminalSize): void {
    this.tree.resize(size.cols, size.rows);
    this.#size = { ...size };
    this.#screen?.resize(size.cols, size.rows);
  }

  /** The screen after every byte logged so far. */
  snapshot(log: OutputLog): Promise<ScreenSnapshot> {
    return this.#catchUp(log, (screen) => screen.snapshot());
  }

  /** Whether cursor keys are in application mode now (for the keys' encoding). */
  applicationCursor(log: OutputLog): Promise<boolean> {
    return this.#catchUp(log, (screen) => screen.applicationCursor);
  }

  /**
   * Why the program waits for input now, or null: echo off in line mode at once, otherwise
   * after `idleMs` of quiet with the cursor after text or in raw mode.
   */
  async awaitingInput(log: OutputLog, idleMs: number): Promise<AwaitingInputReason | null> {
    const state = this.tree.state();
    if (state === null) return null;
    if (isSecretInput(state)) return "password";
    if (idleMs < DEFAULT_PROMPT_IDLE_MS) return null;
    const { cursorLine } = await this.snapshot(log);
    const found = detectAwaitingInput({ ...state, idleMs, cursorLine });
    return found.awaiting ? found.reason : null;
  }

  /** A result told the agent that the program waits, as of `latestSeq`. */
  markReported(latestSeq: number): void {
    this.#reportedSeq = latestSeq;
  }

  /** Whether output arrived since a result last said the program waits (or none said so). */
  changedSinceReport(latestSeq: number): boolean {
    return this.#reportedSeq !== latestSeq;
  }

  [Symbol.dispose](): void {
    this.#disposed = true;
    this.#screen?.[Symbol.dispose]();
    this.#screen = null;
  }

  #catchUp<T>(log: OutputLog, take: (screen: TerminalScreen) => T): Promise<T> {
    const next = this.#feeding.then(async () => take(await this.#fed(log)));
    this.#feeding = next.catch(() => {});
    return next;
  }

  async #fed(log: OutputLog): Promise<TerminalScreen> {
    let screen = this.#screen ?? await this.#newScreen();
    while (this.#fedSeq < log.latestSeq) {
      const page = log.read({
        startSeq: this.#fedSeq,
        maxBytes: FEED_CHUNK_BYTES,
        streams: "stdout",
      });
      if (page.evicted && this.#fedSeq > 1) {
        // What the screen was built from is gone: start over from what is left.
        screen[Symbol.dispose]();
        screen = await this.#newScreen();
      }
      await screen.write(page.stdout);
      this.#fedSeq = page.nextSeq;
      if (page.nextSeq <= page.startSeq) break;
    }
    return screen;
  }

  async #newScreen(): Promise<TerminalScreen> {
    // Loaded on first use: a server that never shows a screen does not pay for the emulator.
    // A computed specifier: Deno does not read the emulator's modules at startup either.
    const { TerminalScreen }: typeof Screen = await import(SCREEN_MODULE);
    const screen = new TerminalScreen(this.#size);
    if (this.#disposed) screen[Symbol.dispose]();
    else this.#screen = screen;
    return screen;
  }
}
