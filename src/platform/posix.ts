import type { ProcessControl, ProcessTree, SpawnRequest } from "../core/process.ts";
import { SIGNAL_NAMES } from "../contract/signal_names.ts";
import { createPosixShared, type PosixShared } from "./posix_shared.ts";
import { createPosixTree } from "./posix_tree.ts";
import type { Sandbox } from "./sandbox_types.ts";
import { sessionArgv } from "./session_argv.ts";
import { SessionStarter } from "./session_start.ts";
import { spawnFailure } from "./spawn_failure.ts";

const SIGNAL_SET: ReadonlySet<string> = new Set(SIGNAL_NAMES);

/** Options of the POSIX adapter. */
export interface PosixOptions {
  /** Signal name to number table of this OS. */
  signals: Readonly<Record<string, number>>;
  /** Whether to tag children with a token and scan for token holders (Linux). */
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
  /** The OS sandbox opened at startup, for confined requests; null when it is off. */
  sandbox?: Sandbox | null;
  /**
   * Keep one session leader started ahead of time for the next plain start like the last one
   * (needs `setsidPath` and a dash shell; see standby.ts). @default {false}
   */
  standby?: boolean;
  /**
   * Under dash, run a lone simple command in place of its shell, as bash does (see
   * simple_exec.ts). @default {false}
   */
  execInPlace?: boolean;
}

/**
 * POSIX process control: own session and group per execution, signals to `-pgid`. `shared`
 * is the containment it shares with the terminal adapter.
 */
export function createPosixControl(
  options: PosixOptions,
  shared: PosixShared = createPosixShared(options),
): ProcessControl {
  const { signals, selfPid } = options;
  const { table, containment, tokens } = shared;
  const starter = new SessionStarter({
    containment,
    setsidPath: options.setsidPath,
    standby: options.standby ?? false,
    execInPlace: options.execInPlace ?? false,
    spawnDirect: (request, env) => spawnInSession(request, env, options),
  });
  return {
    spawn(request: SpawnRequest): ProcessTree {
      const { child, token, guarded } = starter.start(request);
      const sandbox = (request.confinement ?? null) === null ? null : options.sandbox ?? null;
      const tree = createPosixTree({
        child,
        signals,
        token,
        containment,
        table,
        selfPid,
        signalExitCodes: sandbox?.signalExitCodes,
        deafMs: sandbox?.setupMs,
        endsWithShell: sandbox?.endsWithSpawned,
        guarded,
      });
      tokens.set(tree, token);
      starter.started(request);
      return tree;
    },
    // A canonical name this OS numbers (macOS has no SIGPWR or SIGSTKFLT).
    supportsSignal: (signal) => SIGNAL_SET.has(signal) && Object.hasOwn(signals, signal),
    sweep(swept, graceMs) {
      const held = swept.flatMap((tree) => {
        const token = tokens.get(tree) ?? null;
        return token === null ? [] : [token];
      });
      starter.close();
      return containment.sweep(held, graceMs);
    },
    prepareNext: () => starter.prepareNext(),
  };
}

/**
 * Starts `request.shell -c command` (sandboxed or pinned to its cwd when asked) as the leader
 * of a new session and process group.
 */
function spawnInSession(
  request: SpawnRequest,
  env: Record<string, string>,
  options: PosixOptions,
): Deno.ChildProcess {
  const { setsidPath, sandbox = null } = options;
  const piped = {
    cwd: request.cwd,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  } as const;
  try {
    const argv = sessionArgv(request, env, { sandbox, resolve: setsidPath !== null });
    if (setsidPath === null) {
      // A new session makes the shell a group leader: pgid == pid, and signals reach the tree.
      return new Deno.Command(argv.program, { ...piped, args: argv.args, detached: true })
        .spawn();
    }
    // setsid calls setsid() and execs the shell in place: pid == pgid == sid, as with detached.
    return new Deno.Command(setsidPath, { ...piped, args: [argv.program, ...argv.args] }).spawn();
  } catch (error) {
    throw new Error(spawnFailure(error, request.shell, request.cwd));
  }
}
