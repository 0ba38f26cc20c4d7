interface Flags {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
}

// Python's `$` (without MULTILINE) also matches just before a final newline; `\Z` only at the end.
const END_OF_INPUT = "(?![\\s\\S])";
const START_OF_INPUT = "(?<![\\s\\S])";
const END_OR_FINAL_NEWLINE = "(?=\\n?(?![\\s\\S]))";
const LINE_START = "(?<![^\\n])";
const LINE_END = "(?![^\\n])";

// Escapes that Python accepts outside a character class; any other ASCII letter is an error.
const LETTER_ESCAPES = new Set("abBdDfnrsStvwWxuUNAZz");
// Escapes that Python accepts inside a character class.
const CLASS_LETTER_ESCAPES = new Set("abdDfnrsStvwWxuUN");

function fail(reason: string, position: number, advice?: string): never {
  const where = `${reason} at position ${position}`;
  throw new Error(advice === undefined ? where : `${where}; ${advice}`);
}

/**
 * A Python `re` pattern as a JavaScript pattern and flags; throws an Error whose message is the
 * reason for syntax JavaScript cannot express (see `compilePattern`).
 */
export function translatePythonPattern(source: string): { pattern: string; flags: string } {
  const { flags, index: start } = leadingFlags(source);
  const saved: Flags[] = [];
  let current: Flags = { ...flags };
  let out = "";
  let index = start;
  while (index < source.length) {
    if (source[index] === "(") {
      const group = translateGroup(source, index, current);
      if (group.opens) {
        saved.push(current);
        current = group.flags;
      }
      out += group.text;
      index = group.next;
      continue;
    }
    if (source[index] === ")") current = saved.pop() ?? current;
    const piece = translateToken(source, index, current);
    out += piece.text;
    index = piece.next;
  }
  return { pattern: out, flags: flags.ignoreCase ? "i" : "" };
}

/** The flags of leading `(?i)`, `(?m)`, `(?s)` groups, and where the pattern proper starts. */
function leadingFlags(source: string): { flags: Flags; index: number } {
  const flags: Flags = { ignoreCase: false, multiline: false, dotAll: false };
  let index = 0;
  for (;;) {
    const leading = /^\(\?([a-zA-Z]+)\)/.exec(source.slice(index));
    if (leading === null || leading[1].startsWith("P")) return { flags, index };
    applyFlagLetters(flags, leading[1], "", index);
    index += leading[0].length;
  }
}

/** One token other than a group opener, under the flags in force. */
function translateToken(source: string, index: number, flags: Flags): Piece {
  const char = source[index];
  switch (char) {
    case "\\":
      return translateEscape(source, index, false);
    case "[":
      return translateClass(source, index);
    case ".":
      return { text: flags.dotAll ? "[\\s\\S]" : "[^\\n]", next: index + 1 };
    case "^":
      return { text: flags.multiline ? LINE_START : "^", next: index + 1 };
    case "$":
      return { text: flags.multiline ? LINE_END : END_OR_FINAL_NEWLINE, next: index + 1 };
    case "{": {
      const upTo = /^\{,(\d*)\}/.exec(source.slice(index));
      if (upTo === null) return { text: "{", next: index + 1 };
      return { text: `{0,${upTo[1]}}`, next: index + upTo[0].length };
    }
    default:
      return { text: char, next: index + 1 };
  }
}

function applyFlagLetters(flags: Flags, add: string, remove: string, position: number): void {
  for (const letter of add + remove) {
    const adding = add.includes(letter);
    switch (letter) {
      case "i":
        flags.ignoreCase = adding;
        break;
      case "m":
        flags.multiline = adding;
        break;
      case "s":
        flags.dotAll = adding;
        break;
      case "a":
      case "u":
        // ASCII/Unicode matching mode: JavaScript classes are ASCII either way.
        break;
      case "x":
        fail(
          "Inline flag (?x) (verbose) is not supported",
          position,
          "remove the flag and write the pattern without insignificant whitespace or comments",
        );
        break;
      case "L":
        fail("Inline flag (?L) is only valid for bytes patterns", position);
        break;
      default:
        fail(`Unknown inline flag ${letter}`, position);
    }
  }
}

interface Piece {
  text: string;
  next: number;
}

function translateEscape(source: string, index: number, inClass: boolean): Piece {
  const letter = source[index + 1];
  if (letter === undefined) fail("Bad escape (end of pattern)", index);
  if (!/[A-Za-z]/.test(letter)) return { text: `\\${letter}`, next: index + 2 };
  const allowed = inClass ? CLASS_LETTER_ESCAPES : LETTER_ESCAPES;
  if (!allowed.has(letter)) fail(`Bad escape \\${letter}`, index);
  switch (letter) {
    case "A":
      return { text: START_OF_INPUT, next: index + 2 };
    case "Z":
    case "z":
      return { text: END_OF_INPUT, next: index + 2 };
    case "a":
      return { text: "\\x07", next: index + 2 };
    case "N":
      return fail("Named Unicode escapes (\\N{...}) are not supported", index);
    case "U":
      return translateLongUnicode(source, index, inClass);
    case "x":
    case "u": {
      const length = letter === "x" ? 2 : 4;
      const digits = source.slice(index + 2, index + 2 + length);
      if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(digits)) {
        fail(`Incomplete escape \\${letter}${digits}`, index);
      }
      return { text: `\\${letter}${digits}`, next: index + 2 + length };
    }
    default:
      return { text: `\\${letter}`, next: index + 2 };
  }
}

function translateLongUnicode(source: string, index: number, inClass: boolean): Piece {
  const digits = source.slice(index + 2, index + 10);
  if (!/^[0-9a-fA-F]{8}$/.test(digits)) fail("Incomplete escape \\U", index);
  const codePoint = Number.parseInt(digits, 16);
  if (codePoint > 0x10ffff) fail(`Bad escape \\U${digits}`, index);
  const units = String.fromCodePoint(codePoint);
  if (units.length > 1 && inClass) {
    fail("Characters outside the Basic Multilingual Plane are not supported in a set", index);
  }
  const text = [...Array(units.length).keys()]
    .map((i) => `\\u${units.charCodeAt(i).toString(16).padStart(4, "0")}`)
    .join("");
  return { text: units.length > 1 ? `(?:${text})` : text, next: index + 10 };
}

function translateClass(source: string, index: number): Piece {
  let out = "[";
  let cursor = index + 1;
  if (source[cursor] === "^") {
    out += "^";
    cursor += 1;
  }
  // Python reads a `]` right after `[` or `[^` as a literal; JavaScript reads an empty set.
  if (source[cursor] === "]") {
    out += "\\]";
    cursor += 1;
  }
  while (cursor < source.length) {
    const char = source[cursor];
    if (char === "]") return { text: `${out}]`, next: cursor + 1 };
    if (char === "\\") {
      const escape = translateEscape(source, cursor, true);
      out += escape.text;
      cursor = escape.next;
    } else {
      out += char;
      cursor += 1;
    }
  }
  return fail("Unterminated character set", index);
}

interface GroupPiece extends Piece {
  /** True when this opens a group that a later `)` closes. */
  opens: boolean;
  flags: Flags;
}

function translateGroup(source: string, index: number, flags: Flags): GroupPiece {
  const plain = { opens: true, flags };
  if (source[index + 1] !== "?") return { text: "(", next: index + 1, ...plain };
  const rest = source.slice(index);
  const kind = source[index + 2];
  if (kind === "P") return translateNamed(rest, index, flags);
  if (kind === "#") {
    const end = source.indexOf(")", index);
    if (end === -1) fail("Missing ), unterminated comment", index);
    return { text: "", next: end + 1, opens: false, flags };
  }
  if (kind === ":" || kind === "=" || kind === "!") {
    return { text: `(?${kind}`, next: index + 3, ...plain };
  }
  if (kind === "<") {
    // Lookbehind, or a JavaScript-style named group, which Python lacks but is unambiguous.
    return { text: "(?<", next: index + 3, ...plain };
  }
  if (kind === "(") return fail("Conditional groups (?(...)) are not supported", index);
  if (kind === ">") return fail("Atomic groups (?>...) are not supported", index);
  return translateScopedFlags(rest, index, flags);
}

/** `(?P<name>` and `(?P=name)`, Python's named groups and back references. */
function translateNamed(rest: string, index: number, flags: Flags): GroupPiece {
  const named = /^\(\?P<([^>]*)>/.exec(rest);
  if (named !== null) {
    return { text: `(?<${named[1]}>`, next: index + named[0].length, opens: true, flags };
  }
  const reference = /^\(\?P=([^)]*)\)/.exec(rest);
  if (reference === null) return fail("Unknown extension ?P", index);
  return { text: `\\k<${reference[1]}>`, next: index + reference[0].length, opens: false, flags };
}

/** `(?i:...)`, `(?-i:...)` and the like: flags for one group only. */
function translateScopedFlags(rest: string, index: number, flags: Flags): GroupPiece {
  const kind = rest[2];
  const scoped = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(rest);
  if (scoped === null) return fail(`Unknown extension ?${kind ?? ""}`, index);
  const [whole, add, remove = "", end] = scoped;
  if (end === ")") return fail("Global flags not at the start of the expression", index);
  if (add === "" && remove === "") return fail("Missing flag", index);
  if (/[^imsx]/.test(remove)) fail("Bad inline flags: only i, m, s and x can be turned off", index);
  if ([...remove].some((letter) => add.includes(letter))) {
    fail("Bad inline flags: flag turned on and off", index);
  }
  const next: Flags = { ...flags };
  applyFlagLetters(next, add, remove, index);
  let modifier = "";
  if (next.ignoreCase !== flags.ignoreCase) modifier = next.ignoreCase ? "i" : "-i";
  return { text: `(?${modifier}:`, next: index + whole.length, opens: true, flags: next };
}
