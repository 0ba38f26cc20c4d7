/** POSIX signal names accepted by `stop` (the names `Deno.Signal` can send on Linux). */
export const SIGNAL_NAMES = [
  "SIGABRT",
  "SIGALRM",
  "SIGBUS",
  "SIGCHLD",
  "SIGCONT",
  "SIGFPE",
  "SIGHUP",
  "SIGILL",
  "SIGINT",
  "SIGIO",
  "SIGKILL",
  "SIGPIPE",
  "SIGPROF",
  "SIGPWR",
  "SIGQUIT",
  "SIGSEGV",
  "SIGSTKFLT",
  "SIGSTOP",
  "SIGSYS",
  "SIGTERM",
  "SIGTRAP",
  "SIGTSTP",
  "SIGTTIN",
  "SIGTTOU",
  "SIGURG",
  "SIGUSR1",
  "SIGUSR2",
  "SIGVTALRM",
  "SIGWINCH",
  "SIGXCPU",
  "SIGXFSZ",
] as const;

/** A canonical signal name. */
export type SignalName = typeof SIGNAL_NAMES[number];

const SIGNAL_SET: ReadonlySet<string> = new Set(SIGNAL_NAMES);

/** Python `signal.Signals` aliases, mapped to the canonical name. */
const SIGNAL_ALIASES: Readonly<Record<string, SignalName>> = {
  SIGIOT: "SIGABRT",
  SIGPOLL: "SIGIO",
  SIGCLD: "SIGCHLD",
};

/**
 * Canonical signal name for `term`, `TERM`, `sigterm`, `SIGTERM`, ... or null when unknown.
 * Numeric strings are not signal names.
 */
export function normalizeSignalName(raw: string): SignalName | null {
  const upper = raw.toUpperCase();
  const name = upper.startsWith("SIG") ? upper : `SIG${upper}`;
  if (SIGNAL_SET.has(name)) return name as SignalName;
  return Object.hasOwn(SIGNAL_ALIASES, name) ? SIGNAL_ALIASES[name] : null;
}

/** The contract's error for an unknown signal, e.g. `Invalid signal: 'SIGFOO'`. */
export function invalidSignalMessage(raw: string): string {
  return `Invalid signal: ${pythonRepr(raw)}`;
}

// Python's str.isprintable() is false for categories C* and Z* except the ASCII space.
const NON_PRINTABLE = /^[\p{C}\p{Z}]$/u;

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/**
 * Python's `repr()` of a string: single quotes, or double quotes when the text contains `'`
 * and no `"`; backslashes, the quote, `\n`, `\r`, `\t` and non-printable characters escaped.
 */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let body = "";
  for (const char of text) {
    if (char === quote) body += `\\${char}`;
    else if (Object.hasOwn(NAMED_ESCAPES, char)) body += NAMED_ESCAPES[char];
    else if (char !== " " && NON_PRINTABLE.test(char)) body += escapeCodePoint(char);
    else body += char;
  }
  return `${quote}${body}${quote}`;
}

function escapeCodePoint(char: string): string {
  const codePoint = char.codePointAt(0) ?? 0;
  const hex = codePoint.toString(16);
  if (codePoint <= 0xff) return `\\x${hex.padStart(2, "0")}`;
  if (codePoint <= 0xffff) return `\\u${hex.padStart(4, "0")}`;
  return `\\U${hex.padStart(8, "0")}`;
}
