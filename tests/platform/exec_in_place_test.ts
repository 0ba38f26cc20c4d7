/**
 * A lone simple command run in place of its dash (src/platform/simple_exec.ts), through the
 * POSIX port: the program is the execution's process, its exits and signal deaths are what the
 * shell above it would report, and the one difference (bash's) is a program that handles the
 * stop signal itself: it reports its own exit, where dash above it died of the signal first.
 */
import assert from "node:assert/strict";
import type { ProcessControl, ProcessTree } from "../../src/core/process.ts";
import { findSetsid } from "../../src/platform/find_program.ts";
import { createPosixControl } from "../../src/platform/posix.ts";
import { LINUX_SIGNALS } from "../../src/platform/signal_numbers.ts";
import { ON_LINUX } from "../os.ts";

const DASH = ON_LINUX && /(^|\/)dash$/.test(Deno.realPathSync("/bin/sh"));

function control(execInPlace: boolean): ProcessControl {
  return createPosixControl({
    signals: LINUX_SIGNALS,
    containment: true,
    selfPid: Deno.pid,
    setsidPath: findSetsid(),
    execInPlace,
  });
}

/** Starts `command` in `cwd`, waits for its first output line, sends `signal`, and ends. */
async function signalled(processes: ProcessControl, command: string, cwd: string, signal: string) {
  const tree: ProcessTree = processes.spawn({
    shell: "/bin/sh",
    command,
    cwd,
    env: Deno.env.toObject(),
  });
  await tree.stdin.close();
  const reader = tree.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await reader.read()).value, "ready\n", "the program runs before the signal");
  const comm = Deno.readTextFileSync(`/proc/${tree.pid}/comm`).trim();
  await tree.signal(signal);
  while (!(await reader.read()).done) { /* drain */ }
  await tree.stderr.cancel();
  const exit = await tree.exited;
  await tree.ended;
  tree.release();
  return { comm, exit };
}

Deno.test({
  name: "a lone command in place dies by a signal as under dash; one handling it reports its exit",
  ignore: !DASH,
  async fn() {
    const cwd = Deno.makeTempDirSync();
    // A program (a script here) that handles SIGTERM itself and exits 7.
    Deno.writeTextFileSync(
      `${cwd}/handler`,
      "#!/bin/sh\ntrap 'exit 7' TERM\necho ready\nwhile :; do sleep 0.05; done\n",
      { mode: 0o755 },
    );
    Deno.writeTextFileSync(
      `${cwd}/plain`,
      "#!/bin/sh\necho ready\nwhile :; do sleep 0.05; done\n",
      {
        mode: 0o755,
      },
    );
    try {
      const inPlace = control(true);
      const underDash = control(false);
      const plainInPlace = await signalled(inPlace, "./plain", cwd, "SIGTERM");
      assert.equal(plainInPlace.comm, "plain", "the program is the execution's process");
      assert.deepEqual(plainInPlace.exit, { exitCode: -15, signal: "SIGTERM" });
      const plainUnderDash = await signalled(underDash, "./plain", cwd, "SIGTERM");
      assert.equal(plainUnderDash.comm, "sh");
      assert.deepEqual(plainUnderDash.exit, plainInPlace.exit);
      const handled = await signalled(inPlace, "./handler", cwd, "SIGTERM");
      assert.deepEqual(handled.exit, { exitCode: 7, signal: null });
      const died = await signalled(underDash, "./handler", cwd, "SIGTERM");
      assert.deepEqual(died.exit, { exitCode: -15, signal: "SIGTERM" });
    } finally {
      Deno.removeSync(cwd, { recursive: true });
    }
  },
});
