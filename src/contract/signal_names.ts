/** POSIX signal names `stop` accepts: the names Deno can send on Linux. */
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
