import { Guardian } from "./guardian.ts";
import type { Platform, ShellExit, SpawnedProcess, SpawnRequest } from "./types.ts";

/** Environment variable carrying the per-execution containment token (Linux). */
export const TOKEN_VARIABLE = "_MCP_YIELDSHELL_EXECUTION_TOKEN";

/** Options of the POSIX adapter. */
export interface PosixOptions {
  /** Signal name to number table of this OS. */
  signals: Readonly<Record<string, number>>;
  /** Whether to tag children and scan for token holders with `ps` (Linux). */
  containment: boolean;
  /** The server's own pid, never reported as a token holder. */
  selfPid: number;
}

interface ProcessRow {
  pid: number;
  pgid: number;
  zombie: boolean;
  args: string;
}

/** `ps` snapshots of the process table; callers arriving during a scan share it. */
class ProcessTable {
  #withEnvironment: boolean;
  #inflight: Promise<ProcessRow[] | null> | null = null;

  constructor(withEnvironment: boolean) {
    this.#withEnvironment = withEnvironment;
  }

  snapshot(): Promise<ProcessRow[] | null> {
    this.#inflight ??= this.#scan().finally(() => {
      this.#inflight = null;
    });
    return this.#inflight;
  }

  async #scan(): Promise<ProcessRow[] | null> {
    // procps prints each process's environment after its arguments with `e`;
    // reading /proc directly would need --allow-all under Deno 2.9.
    const args = this.#withEnvironment
      ? ["-e", "e", "-ww", "-o", "pid=,pgid=,stat=,args="]
      : ["-A", "-o", "pid=,pgid=,stat="];
    try {
      const output = await new Deno.Command("ps", {
        args,
        stdin: "null",
        stdout: "piped",
        stderr: "null",
      }).output();
      const rows: ProcessRow[] = [];
      for (const line of new TextDecoder().decode(output.stdout).split("\n")) {
        const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
        if (match === null) continue;
        rows.push({
          pid: Number(match[1]),
          pgid: Number(match[2]),
          zombie: match[3].startsWith("Z"),
          args: match[4],
        });
      }
      return rows;
    } catch {
      return null;
    }
  }
}

function isGone(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound ||
    (error instanceof Error && /ESRCH/.test(error.message));
}

function isDenied(error: unknown): boolean {
  return error instanceof Deno.errors.PermissionDenied ||
    (error instanceof Error && /EPERM/.test(error.message));
}

/** POSIX process control: own session and group per execution, signals to `-pgid`. */
export function createPosixPlatform(options: PosixOptions): Platform {
  const { signals, containment, selfPid } = options;
  const table = new ProcessTable(containment);
  const guardian = new Guardian();
  const tokenOf = (token: string) => containment ? token : null;
  function exitOf(status: Deno.CommandStatus): ShellExit {
    if (status.signal === null) return { exitCode: status.code, signal: null };
    const signum = signals[status.signal];
    return { exitCode: signum === undefined ? status.code : -signum, signal: status.signal };
  }

  function send(target: number, signal: string): boolean {
    try {
      Deno.kill(target, signal as Deno.Signal);
      return true;
    } catch (error) {
      if (isGone(error)) return false;
      if (isDenied(error)) return true;
      throw error;
    }
  }

  return {
    name: "posix",
    pathListSeparator: ":",
    pathSeparator: "/",
    tokenVariable: containment ? TOKEN_VARIABLE : null,
    shutdownSignals: ["SIGINT", "SIGTERM", "SIGHUP"],
    defaultShell: () => "/bin/sh",
    shellArgv: (shell, command) => ({ program: shell, args: ["-c", command] }),
    spawn(request: SpawnRequest): SpawnedProcess {
      const { program, args } = this.shellArgv(request.shell ?? "/bin/sh", request.command);
      const env = containment ? { ...request.env, [TOKEN_VARIABLE]: request.token } : request.env;
      let child: Deno.ChildProcess;
      try {
        child = new Deno.Command(program, {
          args,
          cwd: request.cwd,
          env,
          clearEnv: true,
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
          // A new session makes the shell a group leader: pgid == pid, and signals reach the tree.
          detached: true,
        }).spawn();
      } catch (error) {
        throw new Error(spawnFailure(error, program, request.cwd));
      }
      return {
        pid: child.pid,
        stdin: child.stdin,
        stdout: child.stdout,
        stderr: child.stderr,
        exited: child.status.then(exitOf),
      };
    },
    isSignalSupported: (signal) => signal in signals && signal !== "SIGEMT" && signal !== "SIGINFO",
    // No fallback to the bare pid: once the group is gone that pid may belong to someone else.
    signalGroup: (pid, signal) => send(-pid, signal),
    signalProcesses(pids, signal) {
      for (const pid of pids) send(pid, signal);
    },
    guard: (pid, token) => guardian.guard(pid, tokenOf(token)),
    release: (pid, token) => guardian.release(pid, tokenOf(token)),
    async probe(pid, token) {
      // Fast path: no process at all in the group, and nothing to contain.
      const groupMayLive = send(-pid, "SIGURG");
      if (!groupMayLive && !containment) return { groupAlive: false, holders: [] };
      if (!groupMayLive) {
        const holders = await guardian.scan(token);
        if (holders !== null) {
          return {
            groupAlive: false,
            holders: holders.filter((p) => p !== selfPid),
          };
        }
      }
      const rows = await table.snapshot();
      if (rows === null) return { groupAlive: groupMayLive, holders: [] };
      const needle = `${TOKEN_VARIABLE}=${token}`;
      let groupAlive = false;
      const holders: number[] = [];
      for (const row of rows) {
        // Zombies have exited; where init does not reap orphans they linger in the group forever.
        if (row.zombie || row.pid === selfPid) continue;
        if (row.pgid === pid) groupAlive = true;
        else if (containment && row.args.includes(needle)) holders.push(row.pid);
      }
      return { groupAlive: groupAlive && groupMayLive, holders };
    },
  };
}

function spawnFailure(error: unknown, program: string, cwd: string): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof Deno.errors.NotFound) {
    return `Cannot start shell ${program} in ${cwd}: ${reason}; check that the shell exists and the cwd is a directory`;
  }
  return `Cannot start shell ${program}: ${reason}`;
}
