/** How to start a shell on Windows. */
export interface WindowsShellArgv {
  program: string;
  args: string[];
  /**
   * Whether `args` must reach the child unquoted (`windowsRawArguments`). Only `cmd.exe`
   * (and cmd-compatible shells) need it: it does not split its command line the way the C runtime does, so Deno's
   * usual quoting and escaping would hand it backslash-escaped quotes it never removes.
   */
  rawArguments: boolean;
}

function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1).toLowerCase();
}

/** Whether `shell` names Windows PowerShell or PowerShell 7, by basename, any case. */
export function isPowerShell(shell: string): boolean {
  return ["powershell", "powershell.exe", "pwsh", "pwsh.exe"].includes(basename(shell));
}

/** Whether `shell` names a POSIX shell (Git Bash, MSYS, Cygwin), by basename, any case. */
export function isPosixShell(shell: string): boolean {
  return /^(ba|da|k|z|a)?sh(\.exe)?$/.test(basename(shell));
}

/**
 * The argv that runs `command` through `shell`: a POSIX shell (Git Bash, MSYS `sh.exe`,
 * ...) with `-c <command>`, PowerShell with `-NoProfile -NonInteractive -Command <command>`,
 * and anything else, `cmd.exe` and whatever `COMSPEC` names, as
 * `<shell> /d /s /c "<command>"` (no AutoRun; `/s` strips exactly the outer quotes, so the
 * command runs verbatim).
 */
export function windowsShellArgv(shell: string, command: string): WindowsShellArgv {
  if (isPosixShell(shell)) return { program: shell, args: ["-c", command], rawArguments: false };
  if (isPowerShell(shell)) {
    return {
      program: shell,
      args: ["-NoProfile", "-NonInteractive", "-Command", command],
      rawArguments: false,
    };
  }
  return { program: shell, args: ["/d", "/s", "/c", `"${command}"`], rawArguments: true };
}

/** Options of {@linkcode taskkillArgv}. */
export interface TaskkillOptions {
  /** Kill the processes `pid` started too (`/T`). @default {true} */
  tree?: boolean;
}

/** The `taskkill` argv that force-kills `pid` and, by default, every process it started. */
export function taskkillArgv(
  pid: number,
  options: TaskkillOptions = {},
): { program: string; args: string[] } {
  const { tree = true } = options;
  if (!Number.isSafeInteger(pid) || pid <= 0) {
    throw new RangeError(`Cannot kill process ${pid} as a pid must be a positive integer`);
  }
  return { program: "taskkill", args: [...(tree ? ["/T"] : []), "/F", "/PID", String(pid)] };
}

/** `COMSPEC` (looked up in any case, as Windows does) or `cmd.exe`. */
export function windowsDefaultShell(env: Record<string, string>): string {
  for (const [name, value] of Object.entries(env)) {
    if (name.toUpperCase() === "COMSPEC" && value !== "") return value;
  }
  return "cmd.exe";
}
