import type { ProcessTree, ShellExit } from "../core/process.ts";
import { delay } from "../core/timing.ts";
import type { Containment } from "./containment.ts";
import type { ProcessTable } from "./process_table.ts";
import { sendSignal } from "./send_signal.ts";

/** First poll interval while a group outlives its shell; it backs off to the maximum. */
const GROUP_POLL_MS = 50;
/** Longest poll interval for a group that outlives its shell (a daemon may run for hours). */
const MAX_GROUP_POLL_MS = 1_000;

/** What a POSIX tree is made from. */
export interface PosixTreeInit {
  child: Deno.ChildProcess;
  /** Signal name to number table of this OS. */
  signals: Readonly<Record<string, number>>;
  /** Null when containment tokens are off. */
  token: string | null;
  containment: Containment;
  table: ProcessTable;
  /** The server's own pid, which never counts as a member of a group. */
  selfPid: number;
}

/** A shell in its own session and process group (pgid == pid), plus its token holders. */
export class PosixTree implements ProcessTree {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly exited: Promise<ShellExit>;
  readonly ended: Promise<void>;
  /** The containment token of every process of the tree, or null. */
  readonly token: string | null;
  #init: PosixTreeInit;
  #wake = new AbortController();
  #released = false;

  constructor(init: PosixTreeInit) {
    const { child } = init;
    this.#init = init;
    this.pid = child.pid;
    this.stdin = child.stdin;
    this.stdout = child.stdout;
    this.stderr = child.stderr;
    this.token = init.token;
    this.exited = child.status.then((status) => exitOf(status, init.signals));
    this.ended = this.exited
      .then(() => this.#groupGone(), () => {
        // The shell's status is unknown; the core reports the record failed.
      })
      .finally(() => init.containment.releaseGroup(this.pid));
    init.containment.guard(this.pid, init.token);
  }

  async signal(signal: string): Promise<void> {
    // No fallback to the bare pid: once the group is gone that pid may belong to someone else.
    sendSignal(-this.pid, signal);
    await this.#init.containment.signalHolders(this.token, signal);
    // Re-check liveness at once rather than at the next poll.
    const wake = this.#wake;
    this.#wake = new AbortController();
    wake.abort();
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#init.containment.releaseToken(this.token);
  }

  /**
   * Resolves once no live process is left in the group. Polls back off (a daemon may outlive
   * its shell for hours) and restart fast after a signal.
   */
  async #groupGone(): Promise<void> {
    let pollMs = GROUP_POLL_MS;
    while (await this.#groupAlive()) {
      const wake = this.#wake.signal;
      await delay(pollMs, wake);
      pollMs = wake.aborted ? GROUP_POLL_MS : Math.min(pollMs * 1.5, MAX_GROUP_POLL_MS);
    }
  }

  async #groupAlive(): Promise<boolean> {
    // Fast path: no process at all in the group.
    if (!sendSignal(-this.pid, "SIGURG")) return false;
    // Something answers: make sure it is not only zombies, which linger in the group
    // forever where init does not reap orphans.
    const rows = await this.#init.table.snapshot();
    if (rows === null) return true;
    const { selfPid } = this.#init;
    return rows.some((row) => row.pgid === this.pid && !row.zombie && row.pid !== selfPid);
  }
}

function exitOf(status: Deno.CommandStatus, signals: Readonly<Record<string, number>>): ShellExit {
  if (status.signal === null) return { exitCode: status.code, signal: null };
  const signum = signals[status.signal];
  return { exitCode: signum === undefined ? status.code : -signum, signal: status.signal };
}
