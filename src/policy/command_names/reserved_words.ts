/** Reserved words that may precede a command: skipped where the grammar left them as words. */
export const RESERVED_BEFORE_COMMAND: ReadonlySet<string> = new Set([
  "{",
  "!",
  "if",
  "then",
  "else",
  "elif",
  "do",
  "while",
  "until",
]);
/** Reserved words after which no command follows directly. */
export const RESERVED_OTHER: ReadonlySet<string> = new Set([
  "}",
  "fi",
  "done",
  "esac",
  "in",
  "for",
  "select",
  "case",
  "function",
  "[[",
  "]]",
]);

/** Reserved words of bash that a POSIX shell (dash) runs as ordinary command names. */
export const BASH_RESERVED: ReadonlySet<string> = new Set(["[[", "]]", "function", "select"]);
