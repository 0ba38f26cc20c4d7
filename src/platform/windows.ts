import { spawnFailure } from "./spawn_failure.ts";
import { LINUX_SIGNALS } from "./signal_numbers.ts";
import type { Platform, ShellExit, SpawnedProcess, SpawnRequest } from "./types.ts";

/** Result of a short synchronous helper process. */
export interface RunSyncResult {
  code: number;
  stdout: string;
}

/** Runs a helper program to completion; injectable so tests need no Windows. */
export type RunSync = (program: string, args: readonly string[]) => RunSyncResult;

/** Options of the Windows adapter. */
export interface WindowsOptions {
  /** Runs `taskkill`. @default {a synchronous `Deno.Command`} */
  runSync?: RunSync;
}

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

/** `taskkill` exit code for "no process with that PID". */
const TASKKILL_NOT_FOUND = 128;

/** POSIX names `stop` accepts; on Windows every one of them terminates the tree. */
const SIGNAL_NAMES: ReadonlySet<string> = new Set([...Object.keys(LINUX_SIGNALS), "SIGBREAK"]);

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

function runSyncWithDeno(program: string, args: readonly string[]): RunSyncResult {
  const output = new Deno.Command(program, {
    args: [...args],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return { code: output.code, stdout: new TextDecoder().decode(output.stdout) };
}

function exitOf(status: Deno.CommandStatus): ShellExit {
  // Windows has no signals: a tree killed by taskkill /F reports exit code 1.
  return { exitCode: status.code, signal: null };
}

/**
 * Windows process control: the shell is the root of a process tree, killed with
 * `taskkill /T /F`. There is no process group and no containment token, so a descendant
 * whose parent already exited is out of reach (documented in the README).
 */
export function createWindowsPlatform(options: WindowsOptions = {}): Platform {
  const { runSync = runSyncWithDeno } = options;
  // Shells started here that have not exited yet. Liveness comes from this set rather than
  // from `tasklist`: a PID is reused once its process is gone, and `taskkill /T` on a reused
  // PID would kill an unrelated tree.
  const running = new Set<number>();

  function kill(pid: number, tree: boolean): RunSyncResult {
    const { program, args } = taskkillArgv(pid, { tree });
    return runSync(program, args);
  }

  return {
    name: "windows",
    pathListSeparator: ";",
    pathSeparator: "\\",
    tokenVariable: null,
    // The only console signals Deno can listen for on Windows (Ctrl+C and Ctrl+Break).
    shutdownSignals: ["SIGINT", "SIGBREAK"],
    defaultShell: windowsDefaultShell,
    shellArgv: (shell, command) => {
      const { program, args } = windowsShellArgv(shell, command);
      return { program, args };
    },
    spawn(request: SpawnRequest): SpawnedProcess {
      const shell = request.shell ?? windowsDefaultShell(request.env);
      const { program, args, rawArguments } = windowsShellArgv(shell, request.command);
      let child: Deno.ChildProcess;
      try {
        child = new Deno.Command(program, {
          args,
          // Deno otherwise quotes each argument by C-runtime rules, turning the `"<command>"`
          // of `cmd /s /c` into `"\"<command>\""`; raw arguments reach cmd exactly as built.
          windowsRawArguments: rawArguments,
          cwd: request.cwd,
          env: request.env,
          clearEnv: true,
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
          // No `detached`: Deno does not support it on Windows, and taskkill /T finds the tree
          // by parent PID without a process group.
        }).spawn();
      } catch (error) {
        throw new Error(spawnFailure(error, program, request.cwd));
      }
      const pid = child.pid;
      running.add(pid);
      return {
        pid,
        stdin: child.stdin,
        stdout: child.stdout,
        stderr: child.stderr,
        exited: child.status.then(exitOf).finally(() => running.delete(pid)),
      };
    },
    isSignalSupported: (signal) => SIGNAL_NAMES.has(signal),
    signalGroup(pid, _signal) {
      // Windows cannot deliver POSIX signals; per the contract any valid name terminates.
      if (!running.has(pid)) return false;
      const { code } = kill(pid, true);
      if (code === TASKKILL_NOT_FOUND) {
        running.delete(pid);
        return false;
      }
      // Success kills the whole tree at once; another failure (access denied) leaves it
      // running, like EPERM on POSIX.
      if (code === 0) running.delete(pid);
      return true;
    },
    signalProcesses(pids, _signal) {
      for (const pid of pids) {
        if (Number.isSafeInteger(pid) && pid > 0) kill(pid, false);
      }
    },
    // No watchdog on Windows yet: the POSIX one is a detached shell, and Deno cannot detach
    // a child here. A server that dies abruptly leaves its trees running (README limits).
    guard: () => {},
    releaseGroup: () => {},
    releaseToken: () => {},
    // A tree whose shell exited is out of reach (its orphans have no live parent to walk
    // from), and there is no containment token: only the shell itself can be reported.
    isGroupAlive: (pid) => Promise.resolve(running.has(pid)),
    findTokenHolders: () => Promise.resolve(new Map()),
  };
}
