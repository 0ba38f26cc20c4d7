/** The POSIX adapter through the core's port alone: real shells, groups, signals and tokens. */
import assert from "node:assert/strict";
import type { ProcessTree } from "../../src/core/process.ts";
import { findSetsid } from "../../src/platform/find_program.ts";
import { createPosixControl } from "../../src/platform/posix.ts";
import { LINUX_SIGNALS } from "../../src/platform/signal_numbers.ts";
import { isAlive, marker, processesWithMarker } from "../e2e/harness.ts";
import { linux } from "../os.ts";
import { holdingLoop } from "./holding_loop.ts";

function linuxControl() {
  return createPosixControl({
    signals: LINUX_SIGNALS,
    containment: true,
    selfPid: Deno.pid,
    setsidPath: findSetsid(),
  });
}

/** Reads both pipes to the end, so the tree's streams are released. */
async function drain(tree: ProcessTree): Promise<string> {
  const [stdout] = await Promise.all([new Response(tree.stdout).text(), tree.stderr.cancel()]);
  return stdout;
}

linux.test("a tree ends when its group is empty, not when its shell exits", () =>
  holdingLoop(async () => {
    const control = linuxControl();
    const tag = marker();
    const tree = control.spawn({
      shell: "/bin/sh",
      command: "sleep 30 & echo started",
      cwd: Deno.cwd(),
      env: { ...Deno.env.toObject(), TEST_MARKER: tag },
    });
    await tree.stdin.close();
    try {
      let ended = false;
      tree.ended.then(() => ended = true);
      assert.deepEqual(await tree.exited, { exitCode: 0, signal: null });
      assert.equal(processesWithMarker(tag).length, 1, "the background sleep outlives its shell");
      assert.equal(ended, false, "the tree has not ended while its group lives");
      await tree.signal("SIGTERM");
      await tree.ended;
      assert.deepEqual(processesWithMarker(tag), []);
    } finally {
      await tree.signal("SIGKILL");
      tree.release();
      await drain(tree);
    }
  }));

linux.test("sweep finds a descendant that left the group after the tree ended", () =>
  holdingLoop(async () => {
    const control = linuxControl();
    const tag = marker();
    const tree = control.spawn({
      shell: "/bin/sh",
      command: "setsid sleep 30 >/dev/null 2>&1 < /dev/null & echo $!",
      cwd: Deno.cwd(),
      env: { ...Deno.env.toObject(), TEST_MARKER: tag },
    });
    await tree.stdin.close();
    try {
      const daemon = Number((await drain(tree)).trim());
      await tree.ended;
      assert.ok(isAlive(daemon), "the setsid daemon does not keep the tree from ending");
      await control.sweep([tree], 5_000);
      assert.deepEqual(processesWithMarker(tag), []);
    } finally {
      tree.release();
    }
  }));

linux.test("supportsSignal takes canonical names this OS numbers", () => {
  const control = linuxControl();
  assert.equal(control.supportsSignal("SIGTERM"), true);
  assert.equal(control.supportsSignal("SIGSTKFLT"), true);
  assert.equal(control.supportsSignal("TERM"), false);
  assert.equal(control.supportsSignal("toString"), false);
});

linux.test("a shell that cannot start fails with the shell and cwd named", () => {
  assert.throws(
    () =>
      linuxControl().spawn({
        shell: "/nonexistent/yieldshell-no-such-shell",
        command: "true",
        cwd: Deno.cwd(),
        env: {},
      }),
    { message: /^Cannot start shell \/nonexistent\/yieldshell-no-such-shell in / },
  );
});
