import type { TerminalTree } from "../../core/terminal_port.ts";
import { delay } from "../../core/timing.ts";
import type { Containment } from "../containment.ts";
import { sendSignal } from "../send_signal.ts";
import { sessionAlive } from "./session_alive.ts";
import type { PtyProcess } from "./types.ts";

/** First poll interval while the session outlives its leader; it backs off to the maximum. */
const SESSION_POLL_MS = 50;
/** Longest poll interval for a session that outlives its leader. */
const MAX_SESSION_POLL_MS = 1_000;

/** What a terminal tree is made from. */
export interface TerminalTreeInit {
  pty: PtyProcess;
  /** Null when containment tokens are off. */
  token: string | null;
  containment: Containment;
  /** The server's own pid, which never counts as a member of the session. */
  selfPid: number;
}

/**
 * A program on a pseudo-terminal as the core's terminal tree. The session ends once none of
 * its processes is left; signals reach the leader's group, the foreground job, the session and
 * the token holders, and SIGTERM also hangs up the leader (SIGHUP). The terminal closes when
 * its output ends, when the reader stops, or on release.
 */
export function createTerminalTree(init: TerminalTreeInit): TerminalTree {
  const { pty, token, containment } = init;
  const pid = pty.pid;
  const waker = new Waker();
  let released = false;
  const output = hangingUpAtEnd(pty);
  const ended = pty.exited.then(() => sessionGone(init, output.ended, waker))
    .finally(() => containment.releaseGroup(pid));
  containment.guard(pid, token);
  return {
    pid,
    stdin: new WritableStream<Uint8Array>({ write: (chunk) => pty.write(chunk) }),
    stdout: output.stream,
    stderr: new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
    exited: pty.exited,
    ended,
    async signal(signal) {
      pty.signal(signal);
      // A terminal's way to end its session: interactive shells ignore SIGTERM but exit on a
      // hangup, and pass it on to their jobs.
      if (signal === "SIGTERM") sendSignal(pid, "SIGHUP");
      await pty.signalSession(signal);
      await containment.signalHolders(token, signal);
      // Re-check the session at once rather than at the next poll.
      waker.wake();
    },
    release() {
      if (released) return;
      released = true;
      containment.releaseToken(token);
      void pty.close();
    },
    resize: (cols, rows) => pty.resize(cols, rows),
    state: () => terminalState(pty),
  };
}

/** The terminal's echo and line modes, or null once it is closed. */
function terminalState(pty: PtyProcess): ReturnType<TerminalTree["state"]> {
  try {
    const { echo, canonical } = pty.state();
    return { echo, canonical };
  } catch {
    return null; // Closed: nothing reads the terminal any more.
  }
}

/** Ends a poll's wait early; each wake starts a fresh wait. */
class Waker {
  #controller = new AbortController();

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  wake(): void {
    const previous = this.#controller;
    this.#controller = new AbortController();
    previous.abort();
  }
}

/**
 * Settles once the leader's session is empty. Once nothing holds the terminal (its output
 * ended), an empty leader's group is enough (no `ps`): the usual end, and as cheap as a pipe
 * execution's. Until then, or while the group lives, `ps -s`, backing off between polls.
 */
async function sessionGone(
  init: TerminalTreeInit,
  outputEnded: Promise<void>,
  waker: Waker,
): Promise<void> {
  const { pty: { pid }, selfPid } = init;
  let outputDone = false;
  outputEnded.then(() => outputDone = true);
  await Promise.race([outputEnded, delay(SESSION_POLL_MS)]);
  let pollMs = SESSION_POLL_MS;
  while (!(outputDone && !sendSignal(-pid, "SIGURG")) && await sessionAlive(pid, selfPid)) {
    const woken = waker.signal;
    await delay(pollMs, woken);
    pollMs = woken.aborted ? SESSION_POLL_MS : Math.min(pollMs * 1.5, MAX_SESSION_POLL_MS);
  }
}

/**
 * The terminal's output, and when it ended; once it ends (no process holds the terminal) or the
 * reader cancels, the terminal is closed and its descriptors freed.
 */
function hangingUpAtEnd(
  pty: PtyProcess,
): { stream: ReadableStream<Uint8Array>; ended: Promise<void> } {
  const reader = pty.output.getReader();
  const ended = Promise.withResolvers<void>();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (!done) return controller.enqueue(value);
      controller.close();
      ended.resolve();
      await pty.close();
    },
    cancel: async () => {
      ended.resolve();
      await pty.close();
    },
  });
  return { stream, ended: ended.promise };
}
