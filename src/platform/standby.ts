/**
 * A session leader started ahead of time, so that the next execution skips both the spawn
 * and `setsid`'s extra exec (together most of a round trip: glibc's start-up in a fresh
 * process costs hundreds of microseconds per exec, and more in a VM).
 *
 * `setsid SHELL -c LAUNCHER SHELL` waits on stdin for a command, then execs `SHELL -c
 * command` in place: the same pid, session, group, argv, cwd and environment the direct path
 * gives, and stdin carries on with the first byte after the command. Only a shell that is
 * dash qualifies: the launcher is that same shell, and dash passes the environment on
 * unchanged when it already did so once (bash would count SHLVL twice). A standby is used
 * only when shell, cwd (the same directory, not only the same path), environment and a short
 * command match; otherwise the caller spawns directly.
 */

/** The launcher's variables; an environment that names one is never served by a standby. */
const LAUNCHER_NAMES = ["_ys_standby_lines", "_ys_standby_command", "_ys_standby_line"];

/** Reads a line count, then that many lines (the command), and becomes the shell. */
const LAUNCHER = String.raw`IFS= read -r _ys_standby_lines || exit 0
IFS= read -r _ys_standby_command || exit 0
while [ "$_ys_standby_lines" -gt 1 ]; do
  IFS= read -r _ys_standby_line || exit 0
  _ys_standby_command="$_ys_standby_command
$_ys_standby_line"
  _ys_standby_lines=$((_ys_standby_lines - 1))
done
exec "$0" -c "$_ys_standby_command"`;

/**
 * Longest command (UTF-8 bytes) handed over: the shell's `read` takes one byte per system
 * call, and beyond this the direct spawn is as fast.
 */
export const STANDBY_MAX_COMMAND_BYTES = 512;

const encoder = new TextEncoder();

/** What a standby was started for, and must match. */
export interface StandbyStart {
  /** The resolved shell path. */
  shell: string;
  cwd: string;
  /** The environment without containment's token. */
  env: Record<string, string>;
}

/** A standby ready to take a command. */
export interface ReadyStandby {
  child: Deno.ChildProcess;
  token: string | null;
}

interface Standby extends StandbyStart, ReadyStandby {
  /** Device and inode of `cwd` when the standby started in it. */
  directory: string;
  gone: boolean;
}

/** How a pool spawns: `setsid` and the tagged environment. */
export interface StandbyOptions {
  setsidPath: string;
  /** A fresh containment token, or null when tokens are off. */
  newToken(): string | null;
  /** `env` carrying `token`. */
  tag(env: Record<string, string>, token: string | null): Record<string, string>;
  /** Whether `shell` (a resolved path) is dash. */
  isDash(shell: string): boolean;
  /**
   * Hands a started standby to the guardian, so that taking it needs no word to the
   * guardian on the call's path; `release` when it is discarded instead.
   */
  guard(pid: number, token: string | null): void;
  release(pid: number, token: string | null): void;
}

/** At most one standby, started for the most recent start; idle ones cost one small process. */
export class StandbyPool {
  #options: StandbyOptions;
  #ready: Standby | null = null;

  constructor(options: StandbyOptions) {
    this.#options = options;
  }

  /**
   * Hands `command` to the ready standby when it was started for exactly `start`; the
   * caller owns the returned child. Null when there is none to use.
   */
  take(start: StandbyStart, command: string): ReadyStandby | null {
    const standby = this.#ready;
    if (standby === null || !matches(standby, start, command)) return null;
    this.#ready = null;
    const header = `${command.split("\n").length}\n${command}\n`;
    const writer = standby.child.stdin.getWriter();
    // Queued ahead of anything the caller writes; a dead standby shows in its exit status.
    writer.write(encoder.encode(header)).catch(() => {});
    writer.releaseLock();
    standby.child.ref();
    return { child: standby.child, token: standby.token };
  }

  /** Starts a standby for the next start like `start`, unless one is ready for it. */
  prepare(start: StandbyStart): void {
    if (!this.#options.isDash(start.shell)) return;
    if (LAUNCHER_NAMES.some((name) => Object.hasOwn(start.env, name))) return;
    const current = this.#ready;
    if (current !== null && !current.gone && sameStart(current, start)) return;
    this.discard();
    const directory = directoryOf(start.cwd);
    if (directory === null) return;
    const token = this.#options.newToken();
    try {
      const child = new Deno.Command(this.#options.setsidPath, {
        args: [start.shell, "-c", LAUNCHER, start.shell],
        cwd: start.cwd,
        env: this.#options.tag(start.env, token),
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      // An idle standby must not keep a process (or a test) alive.
      child.unref();
      this.#options.guard(child.pid, token);
      const standby: Standby = { ...start, child, token, directory, gone: false };
      const gone = () => standby.gone = true;
      child.status.then(gone, gone);
      this.#ready = standby;
    } catch {
      // Nothing is lost: the next start spawns directly.
    }
  }

  /** Ends the idle standby, if any. */
  discard(): void {
    const standby = this.#ready;
    this.#ready = null;
    if (standby === null) return;
    this.#options.release(standby.child.pid, standby.token);
    // End of input: the launcher's read fails and it exits.
    standby.child.stdin.close().catch(() => {});
    standby.child.stdout.cancel().catch(() => {});
    standby.child.stderr.cancel().catch(() => {});
  }
}

function matches(standby: Standby, start: StandbyStart, command: string): boolean {
  return !standby.gone && sameStart(standby, start) &&
    command.length <= STANDBY_MAX_COMMAND_BYTES &&
    encoder.encode(command).length <= STANDBY_MAX_COMMAND_BYTES &&
    directoryOf(start.cwd) === standby.directory;
}

function sameStart(a: StandbyStart, b: StandbyStart): boolean {
  return a.shell === b.shell && a.cwd === b.cwd && sameEnv(a.env, b.env);
}

function sameEnv(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

/** `dev:ino` of a directory, or null when it is not one. */
function directoryOf(path: string): string | null {
  try {
    const info = Deno.statSync(path);
    return info.isDirectory ? `${info.dev}:${info.ino}` : null;
  } catch {
    return null;
  }
}
