/** What the smoke test asks each platform's default shell to run. */
export interface SmokeCommands {
  /** Prints {@linkcode SmokeCommands.expected} only if the shell expands it. */
  expand: string;
  /** The trimmed stdout of `expand`. */
  expected: string;
  /** Runs for minutes as a process tree (a shell and at least one child). */
  tree: string;
}

/** The commands for `os` (`Deno.build.os`); POSIX shells and `cmd.exe` differ. */
export function smokeCommands(os: string): SmokeCommands {
  if (os === "windows") {
    // %OS% is Windows_NT on every Windows; cmd.exe echoes the name unexpanded without it.
    // ping of loopback is cmd's portable sleep (timeout.exe refuses a redirected stdin).
    return {
      expand: "echo smoke %OS%",
      expected: "smoke Windows_NT",
      tree: "ping -n 300 127.0.0.1 >NUL",
    };
  }
  // Arithmetic expansion proves a shell ran it; the background sleep makes it a tree even
  // where the shell execs its last command.
  return {
    expand: "echo smoke $((6 * 7))",
    expected: "smoke 42",
    tree: "sleep 300 & sleep 300",
  };
}
