/**
 * Real bubblewrap for tests: the probe the server runs at startup decides whether the sandbox
 * tests run (Linux with bwrap and user namespaces) or are reported as ignored, with the reason
 * printed once. Sandboxed commands start as the server starts them: util-linux `setsid` (so bwrap
 * leads a new session and process group), then the argv `wrap()` builds around `/bin/sh -c`.
 */
import { bwrapArgv, type BwrapHost } from "../../src/platform/bwrap.ts";
import { probeBubblewrap } from "../../src/platform/bwrap_probe.ts";
import type { Confinement } from "../../src/platform/sandbox_types.ts";
import { confine } from "../../src/policy/sandbox_confinement.ts";
import { decideSandbox, type SandboxMode } from "../../src/policy/sandbox_profile.ts";
import type { SideEffect } from "../../src/policy/side_effects.ts";
import { ON_LINUX } from "../os.ts";

const probe = ON_LINUX
  ? await probeBubblewrap()
  : { ok: false as const, error: "the bubblewrap sandbox is Linux only" };

/** Why the bubblewrap tests do not run here, or null when they do. */
export const BWRAP_UNAVAILABLE: string | null = probe.ok ? null : probe.error;

if (BWRAP_UNAVAILABLE !== null) {
  console.error(`bubblewrap sandbox tests ignored: ${BWRAP_UNAVAILABLE}`);
}

/** The host facts of this machine (only meaningful when the tests run). */
export const HOST: BwrapHost = probe.ok ? probe.host : { bwrapPath: "/usr/bin/bwrap" };

/** `Deno.test` that runs only where bubblewrap works; elsewhere it is ignored. */
export function bwrapTest(name: string, fn: (t: Deno.TestContext) => Promise<void>): void {
  Deno.test({ name, ignore: BWRAP_UNAVAILABLE !== null, fn });
}

/** The confinement policy gives `declared` (or `strict`) side effects in `cwd`. */
export function confinementFor(
  sideEffects: SideEffect[],
  workspace: { cwd: string; allowedRoots?: string[] },
  mode: SandboxMode = "declared",
): Confinement {
  const decision = decideSandbox(sideEffects, { mode, allowUnconfined: new Set() });
  if (!decision.allow || decision.profile === null) {
    throw new Error(`No sandbox for ${sideEffects.join(",")}: ${JSON.stringify(decision)}`);
  }
  const confined = confine(decision.profile, {
    cwd: workspace.cwd,
    allowedRoots: workspace.allowedRoots ?? [],
  });
  if (!confined.allow) throw new Error(confined.reason);
  return confined.confinement;
}

/** The full argv of a sandboxed `/bin/sh -c command` behind `setsid`, as the server runs it. */
export function sandboxedArgv(command: string, confinement: Confinement): string[] {
  const { program, args } = bwrapArgv({ program: "/bin/sh", args: ["-c", command] }, confinement, {
    ...HOST,
    session: "caller",
  });
  return ["/usr/bin/setsid", program, ...args];
}

/** A sandboxed `/bin/sh -c command`, started through `setsid` like the server's children. */
export function spawnSandboxed(
  command: string,
  confinement: Confinement,
  env: Record<string, string> = {},
): Deno.ChildProcess {
  const [setsid, ...args] = sandboxedArgv(command, confinement);
  return new Deno.Command(setsid, {
    args,
    // As the server spawns it: in the checked cwd, which the launcher pins.
    cwd: confinement.cwd,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** What a finished sandboxed command did. */
export interface Ran {
  code: number;
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
}

/** How long a sandboxed test command may take before it is killed and the test fails. */
const RUN_LIMIT_MS = 30_000;

/**
 * Runs a sandboxed command to its end. A sandbox that outlives its limit (something inside
 * kept the pipes open) is killed through its process group, and the run fails instead of hanging.
 */
export async function runSandboxed(
  command: string,
  confinement: Confinement,
  env: Record<string, string> = {},
): Promise<Ran> {
  const child = spawnSandboxed(command, confinement, env);
  let overdue = false;
  const timer = setTimeout(() => {
    overdue = true;
    signalGroup(child.pid, "SIGKILL");
  }, RUN_LIMIT_MS);
  try {
    const output = await child.output();
    if (overdue) throw new Error(`Sandboxed command still running after ${RUN_LIMIT_MS} ms`);
    const decoder = new TextDecoder();
    return {
      code: output.code,
      signal: output.signal,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Host pids of live processes whose command line contains `marker` (the test reads /proc). */
export function hostPidsWithArg(marker: string): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmdline.includes(marker) && state !== "Z" && state !== "X") {
        found.push(Number(entry.name));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Sends `signal` to a process group, ignoring one that is gone. */
export function signalGroup(pgid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** The argv of `/bin/sh -c 'while :; do sleep 1; done' TAG`, the tests' long-lived loop. */
const sleepLoopCmdline = (tag: string) => `/bin/sh\0-c\0while :; do sleep 1; done\0${tag}\0`;

/** Host pids of the live `/bin/sh -c 'while :; do sleep 1; done' TAG` loops (reads /proc). */
export function sleepLoopPids(tag: string): number[] {
  return hostPidsWithArg(tag).filter((pid) => cmdlineOf(pid) === sleepLoopCmdline(tag));
}

/** A process's argv, or null once it is gone (it may exit between the scan and the read). */
function cmdlineOf(pid: number): string | null {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** A fresh temporary directory (its real path) to serve as a sandbox's workspace. */
export async function workspace(prefix = "ys-sandbox-"): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix }));
}

/** Whether anything (a link included) is at `path`. */
export function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A loopback listener that records the first bytes each connection sends. */
export interface LoopbackListener extends AsyncDisposable {
  port: number;
  /** What each connection sent, in order. */
  received: string[];
}

/** Listens on 127.0.0.1 at a free port; disposing closes it and ends the accept loop. */
export function loopbackListener(): LoopbackListener {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const received: string[] = [];
  const accepting = (async () => {
    for await (const connection of listener) {
      const buffer = new Uint8Array(64);
      const read = await connection.read(buffer).catch(() => null);
      received.push(new TextDecoder().decode(buffer.subarray(0, read ?? 0)));
      connection.close();
    }
  })();
  return {
    port: listener.addr.port,
    received,
    async [Symbol.asyncDispose]() {
      listener.close();
      await accepting.catch(() => {});
    },
  };
}
