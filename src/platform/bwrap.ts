import { launchScript, SANDBOX_INIT } from "./sandbox_init.ts";
import type { Argv, Confinement } from "./sandbox_types.ts";

/** Facts about this machine that the bubblewrap argv depends on (found by the startup probe). */
export interface BwrapHost {
  /** Absolute path of `bwrap`. */
  bwrapPath: string;
  /**
   * How the caller starts bwrap. `caller`: in a session of its own (util-linux `setsid`, as the
   * POSIX spawn does), so the sandbox has no controlling terminal and `--new-session` is not
   * needed; the command stays in bwrap's process group, so group signals reach it. `new`:
   * bwrap makes the new session itself; group signals then reach only bwrap, which dies and
   * takes the sandbox with it. @default {"new"}
   */
  session?: "caller" | "new";
  /**
   * A coreutils `env` that knows `--default-signal` (coreutils 8.31+), or null. With a `caller`
   * session, bwrap runs under a shell that ignores the signals a stop may send, so bwrap outlives
   * them and reports the command's own exit; the command gets its signals back from this `env`.
   * Null: bwrap dies of the first such signal, killing the sandbox at once.
   */
  envPath?: string | null;
  /** Directories also hidden when the network is off (their sockets reach host daemons). */
  offlineHidden?: readonly string[];
}

/** Directories every sandbox replaces with its own (private /tmp, /dev, /proc). */
const ALWAYS_HIDDEN = ["/tmp", "/dev", "/proc"];

/** The name the sandbox's PID 1 runs under (its `$0`, shown by `ps` inside). */
const INIT_NAME = "yieldshell-sandbox";

/**
 * The argv that runs `command` confined: a launcher shell on the host pins the checked cwd (and
 * opens it for binding), then execs bubblewrap with a user, PID, IPC, UTS and cgroup namespace of
 * its own (and a network namespace with only loopback when the network is off), every capability
 * dropped, the whole file system read-only, a private `/tmp`, `/dev` and `/proc`, the writable
 * roots bound read-write, and the sandbox killed when its parent dies. Inside, under bwrap's own
 * PID 1, `SANDBOX_INIT` checks the cwd again, runs the shell and keeps the sandbox until nothing
 * else lives.
 */
export function bwrapArgv(command: Argv, confinement: Confinement, host: BwrapHost): Argv {
  const { bwrapPath, session = "new", envPath = null, offlineHidden = [] } = host;
  const { cwd, network, writable, visible } = confinement;
  for (const path of [cwd, ...writable, ...visible]) {
    if (!path.startsWith("/")) throw new Error(`Cannot sandbox a relative path: ${path}`);
  }
  const hidden = network ? ALWAYS_HIDDEN : [...ALWAYS_HIDDEN, ...offlineHidden];
  const binds = mounts(cwd, writable, visible, hidden);
  const args = [
    ...namespaceArgs(network, session),
    ...fileSystemArgs(hidden),
    ...binds,
    "--chdir",
    cwd,
    "--",
  ];
  const shield = session === "caller" && envPath !== null;
  const init = [
    ...(shield ? [envPath, "--default-signal"] : []),
    "/bin/sh",
    "-c",
    SANDBOX_INIT,
    INIT_NAME,
    cwd,
    envPath ?? "",
    command.program,
    ...command.args,
  ];
  const launcher = launchScript({ shield, openCwd: binds.some((arg) => arg.endsWith("-fd")) });
  return { program: "/bin/sh", args: ["-c", launcher, bwrapPath, cwd, ...args, ...init] };
}

/** Namespaces of its own (the network's only when it is off), no capabilities, its own end. */
function namespaceArgs(network: boolean, session: "caller" | "new"): string[] {
  return [
    "--unshare-user",
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(network ? [] : ["--unshare-net"]),
    "--die-with-parent",
    ...(session === "new" ? ["--new-session"] : []),
    "--cap-drop",
    "ALL",
  ];
}

/** The whole file system read-only, a private `/dev`, `/proc` and `/tmp`, `hidden` emptied. */
function fileSystemArgs(hidden: readonly string[]): string[] {
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    ...hidden.filter((dir) => !ALWAYS_HIDDEN.includes(dir)).flatMap((dir) => ["--tmpfs", dir]),
  ];
}

/**
 * Binds, parents before children: writable roots read-write, and visible paths read-only where
 * a hidden directory covers them (elsewhere the read-only root already shows them). The cwd,
 * when it needs a bind of its own, is bound from fd 3, which the launcher opened on the checked
 * directory: a path swapped for a symlink cannot redirect that bind to anywhere else.
 */
function mounts(
  cwd: string,
  writable: readonly string[],
  visible: readonly string[],
  hidden: readonly string[],
): string[] {
  const shown = visible.filter((path) =>
    hidden.some((dir) => isWithin(path, dir)) && !writable.some((root) => isWithin(path, root))
  );
  const binds = [
    ...shown.map((path) => ({ path, flags: ["--ro-bind-try", path] })),
    ...writable.map((path) => ({ path, flags: ["--bind-try", path] })),
  ].map(({ path, flags }) =>
    path === cwd
      ? { path, flags: [flags[0] === "--bind-try" ? "--bind-fd" : "--ro-bind-fd", "3"] }
      : { path, flags }
  );
  binds.sort((a, b) => depth(a.path) - depth(b.path));
  return binds.flatMap(({ path, flags }) => [...flags, path]);
}

function isWithin(path: string, dir: string): boolean {
  return dir === "/" || path === dir || path.startsWith(`${dir.replace(/\/+$/, "")}/`);
}

function depth(path: string): number {
  return path.split("/").filter((part) => part !== "").length;
}
