import { bwrapArgv, type BwrapHost } from "./bwrap.ts";
import type { Confinement } from "./sandbox_types.ts";

/** Where to look for the programs the sandbox needs. */
export interface BwrapProbeOptions {
  /** `bwrap` paths to try, in order. @default {["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"]} */
  bwrapCandidates?: readonly string[];
  /** `env` paths to try for `--default-signal`. @default {["/usr/bin/env", "/bin/env"]} */
  envCandidates?: readonly string[];
  /** How the caller will start bwrap (see `BwrapHost.session`). @default {"caller"} */
  session?: "caller" | "new";
}

const DEFAULT_BWRAP = ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"];
const DEFAULT_ENV = ["/usr/bin/env", "/bin/env"];
const SELF_TEST: Confinement = { cwd: "/", network: false, writable: [], visible: [] };
const OFF = "or set sandbox to off (--sandbox off, YIELDSHELL_SANDBOX=off)";

/**
 * Checks that bubblewrap can build the sandbox here, by running a real sandboxed `true` with
 * every namespace and the signal shield, and returns the host facts for `bwrapArgv`, or an
 * error naming the package or kernel setting to change.
 */
export async function probeBubblewrap(
  options: BwrapProbeOptions = {},
): Promise<{ ok: true; host: BwrapHost } | { ok: false; error: string }> {
  const { bwrapCandidates = DEFAULT_BWRAP, envCandidates = DEFAULT_ENV, session = "caller" } =
    options;
  const bwrapPath = bwrapCandidates.find(isExecutable);
  if (bwrapPath === undefined) {
    return {
      ok: false,
      error: "Cannot start the sandbox as bubblewrap is not installed (no bwrap in " +
        `${bwrapCandidates.join(", ")}); install the Debian package bubblewrap ` +
        `(apt-get install bubblewrap), ${OFF}`,
    };
  }
  const host: BwrapHost = {
    bwrapPath,
    session,
    envPath: envCandidates.find(isExecutable) ?? null,
    offlineHidden: hideableRun() ? ["/run"] : [],
  };
  let failure = await selfTest(host);
  if (failure !== null && host.envPath !== null && /default-signal/.test(failure)) {
    // An env without --default-signal (busybox, old coreutils): run without the signal shield.
    host.envPath = null;
    failure = await selfTest(host);
  }
  return failure === null ? { ok: true, host } : { ok: false, error: describeFailure(failure) };
}

/** The stderr of a failed sandboxed `true`, or null when it ran. */
async function selfTest(host: BwrapHost): Promise<string | null> {
  const { program, args } = bwrapArgv({ program: "true", args: [] }, SELF_TEST, host);
  try {
    const output = await new Deno.Command(program, {
      args,
      // The sandbox starts only in the directory it was asked for (the launcher checks).
      cwd: SELF_TEST.cwd,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (output.success) return null;
    const stderr = new TextDecoder().decode(output.stderr).trim();
    return stderr === "" ? `exit code ${output.code}` : stderr;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The startup error for a failed self-test, naming the kernel setting when it is user namespaces. */
export function describeFailure(stderr: string): string {
  const userNamespaces =
    /new namespace|user namespace|uid map|gid map|max_user_namespaces|max_\*_namespaces|unprivileged_userns/i;
  if (userNamespaces.test(stderr)) {
    return `Cannot start the sandbox as the kernel refuses bubblewrap a user namespace (${stderr}); ` +
      "allow user namespaces: sysctl user.max_user_namespaces must be above 0, " +
      "kernel.unprivileged_userns_clone=1 where it exists (Debian), and " +
      "kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap " +
      `(Ubuntu 23.10+), ${OFF}`;
  }
  return `Cannot start the sandbox as bubblewrap failed its self-test (${stderr}); ${OFF}`;
}

function isExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * Whether offline sandboxes may hide `/run` (its sockets reach host daemons such as Docker):
 * not where it is a symlink or where the shell lives below it (NixOS).
 */
function hideableRun(): boolean {
  try {
    if (!Deno.lstatSync("/run").isDirectory) return false;
    return !Deno.realPathSync("/bin/sh").startsWith("/run/");
  } catch {
    return false;
  }
}
