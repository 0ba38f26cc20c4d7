import xterm from "@xterm/headless";
import { sanitizeText } from "./sanitize_text.ts";

/** The rendered screen as plain text. */
export interface ScreenSnapshot {
  /** The visible rows, right-trimmed, trailing empty rows dropped, joined by `\n`. */
  text: string;
  /** Where the cursor is, 0-based, in the visible screen. */
  cursor: { row: number; col: number };
  /** The text of the cursor's row left of the cursor (a prompt waiting for input shows here). */
  cursorLine: string;
  /** A full-screen program switched to the alternate screen. */
  alternate: boolean;
  cols: number;
  rows: number;
}

/** Size of a headless screen. */
export interface ScreenOptions {
  cols: number;
  rows: number;
}

/**
 * The rendered-screen view: a headless xterm.js (the emulator VS Code uses) fed the raw output.
 * Titles, hyperlink targets and other sequences act on the emulator and never become text;
 * what a cell shows is sanitized like every text view.
 */
export class TerminalScreen implements Disposable {
  #terminal: InstanceType<typeof xterm.Terminal>;
  #disposed = false;

  constructor(options: ScreenOptions) {
    this.#terminal = new xterm.Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: 0,
      // The headless build still files `buffer` under proposed API; the version is pinned.
      allowProposedApi: true,
      logLevel: "off",
    });
  }

  /** Feeds raw output (bytes are decoded as UTF-8 across calls); settles once parsed. */
  write(data: Uint8Array | string): Promise<void> {
    return new Promise((resolve) => this.#terminal.write(data, resolve));
  }

  /** Follows a terminal resize. */
  resize(cols: number, rows: number): void {
    this.#terminal.resize(cols, rows);
  }

  /** Whether cursor keys are in application mode (DECCKM), for `encodeKey`. */
  get applicationCursor(): boolean {
    return this.#terminal.modes.applicationCursorKeysMode;
  }

  /** The screen now: parse pending writes first (`await write(...)`). */
  snapshot(): ScreenSnapshot {
    const terminal = this.#terminal;
    const buffer = terminal.buffer.active;
    const rows: string[] = [];
    for (let row = 0; row < terminal.rows; row++) {
      const line = buffer.getLine(buffer.viewportY + row);
      rows.push(sanitizeText(line?.translateToString(true) ?? "").trimEnd());
    }
    const cursor = { row: buffer.cursorY, col: buffer.cursorX };
    const cursorRow = buffer.getLine(buffer.viewportY + cursor.row);
    const cursorLine = sanitizeText(cursorRow?.translateToString(false, 0, cursor.col) ?? "");
    while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
    return {
      text: rows.join("\n"),
      cursor,
      cursorLine,
      alternate: buffer.type === "alternate",
      cols: terminal.cols,
      rows: terminal.rows,
    };
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#terminal.dispose();
  }
}
