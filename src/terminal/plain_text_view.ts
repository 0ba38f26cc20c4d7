import { INVISIBLE_CLASS, isSafeCharacter } from "./sanitize_text.ts";

type State = "ground" | "escape" | "intermediate" | "csi" | "string" | "stringEscape";

/** Longest CSI parameter text kept; longer sequences are consumed and ignored. */
const MAX_PARAMETER_CHARS = 64;
const TAB_STOP = 8;
/** Printable text with nothing to interpret: a fast path. */
const PLAIN_RUN = new RegExp(String.raw`[^\x00-\x1f\x7f-\x9f${INVISIBLE_CLASS}]+`, "uy");
/** CSI finals that move the cursor across lines or clear the screen: a line stream cannot show them. */
const TWO_DIMENSIONAL = new Set([
  "A",
  "B",
  "E",
  "F",
  "H",
  "f",
  "d",
  "e",
  "J",
  "S",
  "T",
  "L",
  "M",
  "r",
]);

/**
 * The plain-text stream view of terminal output: escape sequences removed (titles, links,
 * colours, cursor tricks), each line as it finally reads on the terminal (`\r` progress
 * updates, backspaces and line erases collapsed), and nothing that could mislead a reader
 * (see `sanitizeText`). Feed it decoded output in order; state carries across chunks, so a
 * sequence split between two reads is still removed.
 */
export class PlainTextView {
  #state: State = "ground";
  #parameters = "";
  #intermediates = "";
  #line: string[] = [];
  #column = 0;
  #lossy = false;
  #alternateScreen = false;
  #completed = "";

  /** Adds output; returns the lines it completed, each ending in `\n`. */
  push(text: string): string {
    let index = 0;
    while (index < text.length) {
      if (this.#state === "ground") {
        PLAIN_RUN.lastIndex = index;
        const run = PLAIN_RUN.exec(text);
        if (run !== null) {
          this.#print(run[0]);
          index += run[0].length;
          continue;
        }
      }
      const char = String.fromCodePoint(text.codePointAt(index) ?? 0);
      this.#feed(char);
      index += char.length;
    }
    const completed = this.#completed;
    this.#completed = "";
    return completed;
  }

  /** The line being written, with no newline yet: a prompt, or a progress line. */
  get partialLine(): string {
    return this.#line.join("");
  }

  /**
   * Whether the output so far moved the cursor across lines, cleared the screen or used the
   * alternate screen: the stream view then misses what the screen shows, so read the screen.
   */
  get lossy(): boolean {
    return this.#lossy;
  }

  /** Whether the program is in the alternate screen now (a full-screen program). */
  get alternateScreen(): boolean {
    return this.#alternateScreen;
  }

  #feed(char: string): void {
    const code = char.codePointAt(0) ?? 0;
    if (code === 0x18 || code === 0x1a) { // CAN, SUB abort any sequence.
      this.#state = "ground";
      return;
    }
    switch (this.#state) {
      case "ground":
        return this.#ground(char, code);
      case "escape":
        return this.#escape(char, code);
      case "intermediate":
        if (code >= 0x20 && code <= 0x2f) return;
        if (code < 0x20) return this.#control(code);
        this.#state = "ground"; // Charset designations and the like: nothing to show.
        return;
      case "csi":
        return this.#csi(char, code);
      case "string":
        if (code === 0x1b) this.#state = "stringEscape";
        else if (code === 0x07 || code === 0x9c) this.#state = "ground";
        return;
      case "stringEscape":
        this.#state = "ground";
        if (char !== "\\") this.#escapeStart(char, code); // ESC ends the string and starts anew.
        return;
    }
  }

  #ground(char: string, code: number): void {
    if (code === 0x1b) {
      this.#state = "escape";
    } else if (code === 0x9b) {
      this.#startCsi();
    } else if ([0x90, 0x98, 0x9d, 0x9e, 0x9f].includes(code)) {
      this.#state = "string";
    } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      this.#control(code);
    } else if (isSafeCharacter(char)) {
      this.#print(char);
    }
  }

  /** C0 (and the C1 line feeds); the rest of the controls print nothing. */
  #control(code: number): void {
    if (code === 0x0a || code === 0x0b || code === 0x0c || code === 0x84 || code === 0x85) {
      this.#newline();
    } else if (code === 0x0d) {
      this.#column = 0;
    } else if (code === 0x08) {
      this.#column = Math.max(0, this.#column - 1);
    } else if (code === 0x09) {
      this.#tab();
    } else if (code === 0x8d) {
      this.#lossy = true; // Reverse index.
    }
  }

  #escape(char: string, code: number): void {
    this.#state = "ground";
    this.#escapeStart(char, code);
  }

  #escapeStart(char: string, code: number): void {
    if (char === "[") this.#startCsi();
    else if ("]PX^_".includes(char)) this.#state = "string";
    else if (code >= 0x20 && code <= 0x2f) this.#state = "intermediate";
    else if (code === 0x1b) this.#state = "escape";
    else if (char === "D" || char === "E") this.#newline();
    else if ("M78c".includes(char)) this.#lossy = true; // Reverse index, cursor save/restore, reset.
    else if (code < 0x20) this.#control(code);
  }

  #startCsi(): void {
    this.#state = "csi";
    this.#parameters = "";
    this.#intermediates = "";
  }

  #csi(char: string, code: number): void {
    if (code >= 0x30 && code <= 0x3f) {
      if (this.#parameters.length < MAX_PARAMETER_CHARS) this.#parameters += char;
    } else if (code >= 0x20 && code <= 0x2f) {
      this.#intermediates += char;
    } else if (code >= 0x40 && code <= 0x7e) {
      this.#state = "ground";
      this.#dispatch(char);
    } else if (code === 0x1b) {
      this.#state = "escape";
    } else if (code < 0x20) {
      this.#control(code); // C0 controls act even inside a sequence.
    } else {
      this.#state = "ground";
    }
  }

  #dispatch(final: string): void {
    const parameters = this.#parameters;
    if (this.#intermediates !== "") return;
    if (/^[?<=>]/.test(parameters)) {
      if (final === "h" || final === "l") this.#privateMode(parameters.slice(1), final === "h");
      return;
    }
    const values = parameters.split(/[;:]/).map((value) => Number.parseInt(value, 10));
    const first = Number.isNaN(values[0]) ? 0 : values[0];
    const count = Math.max(1, first);
    const line = this.#line;
    switch (final) {
      case "K":
        if (first === 0) line.length = Math.min(line.length, this.#column);
        else if (first === 1) line.fill(" ", 0, Math.min(line.length, this.#column + 1));
        else if (first === 2) line.length = 0;
        return;
      case "G":
      case "`":
        this.#column = count - 1;
        return;
      case "C":
      case "a":
        this.#column += count;
        return;
      case "D":
        this.#column = Math.max(0, this.#column - count);
        return;
      case "X":
        line.fill(" ", this.#column, Math.min(line.length, this.#column + count));
        return;
      case "P":
        line.splice(this.#column, count);
        return;
      case "@":
        if (this.#column < line.length) line.splice(this.#column, 0, ...Array(count).fill(" "));
        return;
    }
    if (TWO_DIMENSIONAL.has(final)) this.#lossy = true;
  }

  #privateMode(parameters: string, set: boolean): void {
    const modes = parameters.split(";");
    if (modes.some((mode) => mode === "1049" || mode === "1047" || mode === "47")) {
      this.#alternateScreen = set;
      this.#lossy = true;
    }
  }

  #print(text: string): void {
    const line = this.#line;
    if (this.#column === line.length) {
      for (const char of text) line.push(char);
      this.#column = line.length;
      return;
    }
    for (const char of text) {
      while (line.length < this.#column) line.push(" ");
      line[this.#column++] = char;
    }
  }

  #tab(): void {
    if (this.#column >= this.#line.length) {
      // At the end of the line a tab stays a tab (tables keep their separators)...
      this.#line.push("\t");
      this.#column = this.#line.length;
    } else {
      // ...inside it, it only moves the cursor, as on the terminal.
      this.#column = (Math.floor(this.#column / TAB_STOP) + 1) * TAB_STOP;
    }
  }

  #newline(): void {
    this.#completed += `${this.#line.join("")}\n`;
    this.#line = [];
    this.#column = 0;
  }
}

/** The stream view of a whole text at once: completed lines plus the partial last line. */
export function plainText(raw: string): { text: string; lossy: boolean } {
  const view = new PlainTextView();
  const text = view.push(raw) + view.partialLine;
  return { text, lossy: view.lossy };
}
