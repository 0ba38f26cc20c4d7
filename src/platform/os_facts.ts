/** What the process edge (main.ts, app.ts, config) needs to know about the OS. */
export interface OsFacts {
  /** Separator of `YIELDSHELL_ALLOWED_CWDS`. */
  readonly pathListSeparator: ":" | ";";
  /** Path separator used when resolving working directories. */
  readonly pathSeparator: "/" | "\\";
  /** Signals that ask the server to shut down gracefully. */
  readonly shutdownSignals: readonly Deno.Signal[];
  /** The shell used when neither the call nor the configuration names one. */
  defaultShell(env: Record<string, string>): string;
}

/** POSIX: `/bin/sh`, `:`-separated path lists, and the three terminal signals. */
export const POSIX_FACTS: OsFacts = {
  pathListSeparator: ":",
  pathSeparator: "/",
  shutdownSignals: ["SIGINT", "SIGTERM", "SIGHUP"],
  defaultShell: () => "/bin/sh",
};
