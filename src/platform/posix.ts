import { spawnFailure } from "./spawn_failure.ts";
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
  /**
   * Start children through this `setsid` binary instead of Deno's `detached`.
   * Deno implements `detached` with a pre-exec hook, which forces a fork() of
   * the whole server per spawn (milliseconds, growing with its heap); a plain
   * spawn of `setsid` takes the posix_spawn fast path. null: use `detached`.
   */
  setsidPath: string | null;
}

/** The first existing `setsid` of util-linux, or null. */
export function findSetsid(): string | null {
  for (const path of ["/usr/bin/setsid", "/bin/setsid"]) {
    if (executableFile(path)) return path;
  }
  return null;
}

function executableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Resolves a shell name the way execvp would, so a missing shell fails before spawning. */
function resolveProgram(program: string, env: Record<string, string>): string | null {
  if (program.includes("/")) return executableFile(program) ? program : null;
  for (const dir of (env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(":")) {
    const candidate = `${dir === "" ? "." : dir}/${program}`;
    if (executableFile(candidate)) return candidate;
  }
  return null;
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
  const { signals, containment, selfPid, setsidPath } = options;
  const table = new ProcessTable(containment);
  const guardian = new Guardian();
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
      const piped = {
        cwd: request.cwd,
        env,
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      } as const;
      let child: Deno.ChildProcess;
      try {
        if (setsidPath === null) {
          // A new session makes the shell a group leader: pgid == pid, and signals reach the tree.
          child = new Deno.Command(program, { ...piped, args, detached: true }).spawn();
        } else {
          const resolved = resolveProgram(program, env);
          if (resolved === null) {
            throw new Deno.errors.NotFound("No such file or directory (os error 2)");
          }
          // setsid calls setsid() and execs the shell in place: pid == pgid == sid, as with detached.
          child = new Deno.Command(setsidPath, { ...piped, args: [resolved, ...args] }).spawn();
        }
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
    guard: (pid, token) => guardian.guard(pid, containment ? token : null),
    releaseGroup: (pid) => guardian.releaseGroup(pid),
    releaseToken: (token) => {
      if (containment) guardian.releaseToken(token);
    },
    async isGroupAlive(pid) {
      // Fast path: no process at all in the group.
      if (!send(-pid, "SIGURG")) return false;
      // Something answers: make sure it is not only zombies, which linger in the group
      // forever where init does not reap orphans.
      const rows = await table.snapshot();
      if (rows === null) return true;
      return rows.some((row) => row.pgid === pid && !row.zombie && row.pid !== selfPid);
    },
    async findTokenHolders(tokens) {
      const found = new Map<string, number[]>();
      if (!containment || tokens.length === 0) return found;
      const scanned = await guardian.scan(tokens);
      if (scanned !== null) {
        for (const token of tokens) {
          const pids = (scanned.get(token) ?? []).filter((pid) => pid !== selfPid);
          if (pids.length > 0) found.set(token, pids);
        }
        return found;
      }
      // The guardian is gone: fall back to ps, whose `e` output ends with the environment.
      const rows = await table.snapshot();
      for (const row of rows ?? []) {
        if (row.zombie || row.pid === selfPid) continue;
        for (const token of tokens) {
          if (!row.args.includes(`${TOKEN_VARIABLE}=${token}`)) continue;
          found.set(token, [...found.get(token) ?? [], row.pid]);
        }
      }
      return found;
    },
  };
}
