import type { SpawnRequest } from "../core/process.ts";
import type { Containment } from "./containment.ts";
import { realPath } from "./file_probe.ts";
import { resolveProgram } from "./find_program.ts";
import { simpleExec } from "./simple_exec.ts";
import { StandbyPool, type StandbyStart } from "./standby.ts";

/** A started shell and the containment token in its environment. */
export interface StartedChild {
  child: Deno.ChildProcess;
  token: string | null;
  /** Whether the guardian holds its group already (a standby's). */
  guarded: boolean;
}

/** What a {@linkcode SessionStarter} needs from the POSIX adapter. */
export interface SessionStarterOptions {
  containment: Containment;
  /** `setsid`, or null where Deno's `detached` is used (no standby then). */
  setsidPath: string | null;
  /** Whether to keep a standby for the next start (see standby.ts). */
  standby: boolean;
  /** Whether dash runs a lone simple command in place (see simple_exec.ts). */
  execInPlace: boolean;
  /** Spawns `request` directly as a session leader, with `env` (tagged) as its environment. */
  spawnDirect(request: SpawnRequest, env: Record<string, string>): Deno.ChildProcess;
}

/**
 * How an execution's shell is started: from the standby when one matches, else directly; a
 * lone simple command under dash is exec'd in place (see simple_exec.ts).
 */
export class SessionStarter {
  #options: SessionStarterOptions;
  #dash = new Map<string, boolean>();
  #standby: StandbyPool | null;
  /** The most recent start in the server's own environment: what the next standby is for. */
  #next: StandbyStart | null = null;

  constructor(options: SessionStarterOptions) {
    this.#options = options;
    const { setsidPath, containment } = options;
    this.#standby = !options.standby || setsidPath === null ? null : new StandbyPool({
      setsidPath,
      newToken: () => containment.newToken(),
      tag: (env, token) => containment.tag(env, token),
      isDash: (shell) => this.#isDash(shell),
      guard: (pid, token) => containment.guard(pid, token),
      release: (pid, token) => {
        containment.releaseGroup(pid);
        containment.releaseToken(token);
      },
    });
  }

  /**
   * Starts `request`'s shell; throws with a `failed_to_start` text when the OS refuses. A
   * sandboxed start is left exactly as asked (its init runs the shell), and only a plain one
   * (see {@linkcode standbyStart}) may take the standby.
   */
  start(request: SpawnRequest): StartedChild {
    const confined = (request.confinement ?? null) !== null;
    const shell = confined ? null : resolveProgram(request.shell, request.env);
    const inPlace = this.#options.execInPlace && shell !== null && this.#isDash(shell);
    const command = inPlace ? execInPlace(request) : request.command;
    const start = standbyStart(request, shell);
    const ready = start === null ? null : this.#standby?.take(start, command) ?? null;
    if (ready !== null) return { ...ready, guarded: true };
    const { containment } = this.#options;
    const token = containment.newToken();
    const child = this.#options.spawnDirect(
      { ...request, command },
      containment.tag(request.env, token),
    );
    return { child, token, guarded: false };
  }

  /** `request`'s tree is built: remember it as the start the next standby is for. */
  started(request: SpawnRequest): void {
    if (this.#standby === null) return;
    const start = standbyStart(request, resolveProgram(request.shell, request.env));
    if (start !== null) this.#next = start;
  }

  /** Starts the standby for the most recent start, unless one is ready for it. */
  prepareNext(): void {
    if (this.#next !== null) this.#standby?.prepare(this.#next);
  }

  /** Ends the idle standby; none starts until the next start. */
  close(): void {
    this.#next = null;
    this.#standby?.discard();
  }

  #isDash(shell: string): boolean {
    let dash = this.#dash.get(shell);
    if (dash === undefined) {
      dash = /(^|\/)dash$/.test(realPath(shell) ?? "");
      this.#dash.set(shell, dash);
    }
    return dash;
  }
}

/**
 * What a standby for `request` would be started for, or null when none may serve it: only a
 * start in the server's own environment (`reusable`: the call set no variables, and it is no
 * terminal), unsandboxed, without the cwd pin (the launcher does not pin), with a shell found.
 */
function standbyStart(request: SpawnRequest, shell: string | null): StandbyStart | null {
  const plain = request.reusable === true && (request.confinement ?? null) === null &&
    request.cwdChecked !== true;
  return plain && shell !== null ? { shell, cwd: request.cwd, env: request.env } : null;
}

/** dash runs a lone simple command in place, as bash does (see simple_exec.ts). */
function execInPlace(request: SpawnRequest): string {
  return simpleExec(request.command, {
    cwd: request.cwd,
    path: request.env.PATH,
    isExecutable: (path) => {
      try {
        const info = Deno.statSync(path);
        return info.isFile && ((info.mode ?? 0) & 0o001) !== 0;
      } catch {
        return false;
      }
    },
  });
}
