import type { ProcessTree, ShellExit } from "../core/process.ts";
import { delay } from "../core/timing.ts";
import type { Containment } from "./containment.ts";
import { pipesOf } from "./pipes_of.ts";
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
  /** Exit code 128+N means the shell died from signal N (a sandbox's init reported it). */
  signalExitCodes?: boolean;
  /**
   * For this long after the spawn the tree may drop signals (a sandbox being set up ignores
   * them): a signal sent in that time is sent again once it is over. @default {0}
   */
  deafMs?: number;
  /**
   * Every process of the tree lives in a PID namespace that ends when the shell exits (the
   * bubblewrap sandbox kills whatever is left), so the tree ends with the shell. @default {false}
   */
  endsWithShell?: boolean;
  /** The guardian holds the group already (a standby is guarded from its start). */
  guarded?: boolean;
}

/**
 * A shell in its own session and process group (pgid == pid), plus its token holders. The
 * tree ends once no live process is left in the group; polls back off (a daemon may outlive
 * its shell for hours) and restart fast after a signal.
 */
export function createPosixTree(init: PosixTreeInit): ProcessTree {
  const { child, containment, token } = init;
  const pid = child.pid;
  const spawnedMs = performance.now();
  const resends = new Set<ReturnType<typeof setTimeout>>();
  let wake = new AbortController();
  let released = false;
  const groupGone = async () => {
    let pollMs = GROUP_POLL_MS;
    // Everything of it lived in a PID namespace that ended with the shell (a sandbox): what is
    // left in the group are zombies nobody may reap, not work.
    if (init.endsWithShell === true) return;
    while (await groupAlive(pid, init)) {
      const woken = wake.signal;
      await delay(pollMs, woken);
      pollMs = woken.aborted ? GROUP_POLL_MS : Math.min(pollMs * 1.5, MAX_GROUP_POLL_MS);
    }
  };
  const exited = child.status.then((status) =>
    exitOf(status, init.signals, init.signalExitCodes ?? false)
  );
  const ended = exited
    .then(groupGone, () => {
      // The shell's status is unknown; the core reports the record failed.
    })
    .finally(() => {
      for (const timer of resends) clearTimeout(timer);
      containment.releaseGroup(pid);
    });
  if (init.guarded !== true) containment.guard(pid, token);
  return {
    ...pipesOf(child),
    exited,
    ended,
    async signal(signal) {
      // No fallback to the bare pid: once the group is gone that pid may belong to someone else.
      sendSignal(-pid, signal);
      const deafLeftMs = (init.deafMs ?? 0) - (performance.now() - spawnedMs);
      if (deafLeftMs > 0) {
        const timer = setTimeout(() => {
          resends.delete(timer);
          sendSignal(-pid, signal);
        }, deafLeftMs);
        resends.add(timer);
      }
      await containment.signalHolders(token, signal);
      // Re-check liveness at once rather than at the next poll.
      const previous = wake;
      wake = new AbortController();
      previous.abort();
    },
    release() {
      if (released) return;
      released = true;
      containment.releaseToken(token);
    },
  };
}

/** Whether a live (non-zombie) process other than the server remains in group `pgid`. */
async function groupAlive(pgid: number, init: PosixTreeInit): Promise<boolean> {
  // Fast path: no process at all in the group.
  if (!sendSignal(-pgid, "SIGURG")) return false;
  // Something answers: make sure it is not only zombies, which linger in the group
  // forever where init does not reap orphans.
  const rows = await init.table.snapshot();
  if (rows === null) return true;
  return rows.some((row) => row.pgid === pgid && !row.zombie && row.pid !== init.selfPid);
}

function exitOf(
  status: Deno.CommandStatus,
  signals: Readonly<Record<string, number>>,
  signalExitCodes: boolean,
): ShellExit {
  if (status.signal === null) {
    const name = signalExitCodes && status.code > 128 ? nameOf(status.code - 128, signals) : null;
    if (name !== null) return { exitCode: 128 - status.code, signal: name };
    return { exitCode: status.code, signal: null };
  }
  const signum = signals[status.signal];
  return { exitCode: signum === undefined ? status.code : -signum, signal: status.signal };
}

function nameOf(signum: number, signals: Readonly<Record<string, number>>): string | null {
  for (const [name, number] of Object.entries(signals)) if (number === signum) return name;
  return null;
}
