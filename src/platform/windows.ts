import { SIGNAL_NAMES } from "../contract/signal_names.ts";
import type { ProcessControl, ProcessTree, ShellExit, SpawnRequest } from "../core/process.ts";
import type { OsFacts } from "./os_facts.ts";
import { pipesOf } from "./pipes_of.ts";
import { spawnFailure } from "./spawn_failure.ts";
import { taskkillArgv, windowsDefaultShell, windowsShellArgv } from "./windows_argv.ts";

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

/** `taskkill` exit code for "no process with that PID". */
const TASKKILL_NOT_FOUND = 128;

/** POSIX names `stop` accepts; on Windows every one of them terminates the tree. */
const SIGNAL_SET: ReadonlySet<string> = new Set([...SIGNAL_NAMES, "SIGBREAK"]);

/** Windows: `;`-separated path lists, `COMSPEC`, and the console signals Deno can hear. */
export const WINDOWS_FACTS: OsFacts = {
  pathListSeparator: ";",
  pathSeparator: "\\",
  // The only console signals Deno can listen for on Windows (Ctrl+C and Ctrl+Break).
  shutdownSignals: ["SIGINT", "SIGBREAK"],
  defaultShell: windowsDefaultShell,
};

function runSyncWithDeno(program: string, args: readonly string[]): RunSyncResult {
  const output = new Deno.Command(program, {
    args: [...args],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return { code: output.code, stdout: new TextDecoder().decode(output.stdout) };
}

/**
 * Windows process control: the shell is the root of a process tree, killed with
 * `taskkill /T /F`. There is no process group and no containment token, so a descendant
 * whose parent already exited is out of reach (documented in the README).
 */
export class WindowsControl implements ProcessControl {
  #runSync: RunSync;
  // Shells started here that have not exited yet. Liveness comes from this set rather than
  // from `tasklist`: a PID is reused once its process is gone, and `taskkill /T` on a reused
  // PID would kill an unrelated tree.
  #running = new Set<number>();

  constructor(options: WindowsOptions = {}) {
    this.#runSync = options.runSync ?? runSyncWithDeno;
  }

  /** Whether a shell started here has neither exited nor been killed. */
  isRunning(pid: number): boolean {
    return this.#running.has(pid);
  }

  spawn(request: SpawnRequest): ProcessTree {
    if ((request.confinement ?? null) !== null) {
      // Startup refuses sandbox modes here; should a confined request arrive anyway, fail closed.
      throw new Error("Cannot start a sandboxed command as Windows has no OS sandbox");
    }
    const { program, args, rawArguments } = windowsShellArgv(request.shell, request.command);
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
    return this.#track(child);
  }

  supportsSignal(signal: string): boolean {
    return SIGNAL_SET.has(signal);
  }

  // No containment token on Windows: nothing outside a tree can be found again.
  sweep(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Kills the tree of a shell started here with `taskkill /T /F`; false when it is gone.
   * Windows cannot deliver POSIX signals; per the contract any valid name terminates.
   */
  killTree(pid: number): boolean {
    if (!this.#running.has(pid)) return false;
    const { program, args } = taskkillArgv(pid);
    const { code } = this.#runSync(program, args);
    if (code === TASKKILL_NOT_FOUND) {
      this.#running.delete(pid);
      return false;
    }
    // Success kills the whole tree at once; another failure (access denied) leaves it
    // running, like EPERM on POSIX.
    if (code === 0) this.#running.delete(pid);
    return true;
  }

  #track(child: Deno.ChildProcess): ProcessTree {
    const pid = child.pid;
    this.#running.add(pid);
    // Windows has no signals: a tree killed by taskkill /F reports exit code 1.
    const exited: Promise<ShellExit> = child.status
      .then((status) => ({ exitCode: status.code, signal: null }))
      .finally(() => this.#running.delete(pid));
    return {
      ...pipesOf(child),
      exited,
      // A tree whose shell exited is out of reach (its orphans have no live parent to walk
      // from): it ends with its shell.
      ended: exited.then(() => {}, () => {}),
      signal: (_signal) => Promise.resolve(void this.killTree(pid)),
      // No watchdog on Windows yet: the POSIX one is a detached shell, and Deno cannot detach
      // a child here. A server that dies abruptly leaves its trees running (README limits).
      release: () => {},
    };
  }
}
