import assert from "node:assert/strict";
import { eventually, marker, processesWithMarker, startServer, waitForExit } from "./harness.ts";
import { linux, posix } from "../os.ts";

const NONE = ["NONE"];

linux.test("stop kills the whole process group, grandchildren included", async () => {
  await using s = await startServer();
  const tag = marker();
  const { payload } = await s.call("execute", {
    command: "sleep 60 & sleep 60 & bash -c 'sleep 60 & wait' & wait",
    side_effects: NONE,
    env: { TEST_MARKER: tag },
    yield_ms: 200,
  });
  await eventually(() => processesWithMarker(tag).length >= 5, 10_000, "grandchildren to start");
  const reply = await s.call("stop", { execution_id: payload.execution_id, signal: "term" });
  assert.equal(reply.payload.stopped, true);
  assert.equal(reply.payload.signal, "SIGTERM");
  assert.deepEqual(processesWithMarker(tag), []);
  const again = await s.call("stop", { execution_id: payload.execution_id });
  assert.equal(again.payload.error, "Execution is not running (status: stopped)");
});

posix.test("stop escalates to SIGKILL for a process that traps SIGTERM; invalid signals stop nothing", async () => {
  await using s = await startServer();
  const { payload } = await s.call("execute", {
    command: "trap '' TERM; echo ready; while true; do sleep 0.05; done",
    side_effects: NONE,
    yield_ms: 300,
  });
  assert.equal(payload.stdout, "ready\n");
  const invalid = await s.call("stop", { execution_id: payload.execution_id, signal: "SIGNOPE" });
  assert.equal(invalid.isError, true);
  assert.match(invalid.payload.error, /^Invalid signal: 'SIGNOPE'/);
  assert.equal(
    (await s.call("read", { execution_id: payload.execution_id })).payload.status,
    "running",
  );
  const started = performance.now();
  const reply = await s.call("stop", { execution_id: payload.execution_id, force_after_ms: 300 });
  assert.equal(reply.payload.stopped, true);
  assert.ok(performance.now() - started >= 300);
  const read = await s.call("read", { execution_id: payload.execution_id });
  assert.equal(read.payload.status, "stopped");
  assert.equal(read.payload.signal, "SIGKILL");
  assert.equal(read.payload.exit_code, -9);
});

linux.test("timeout_ms terminates with TERM then KILL and reports timed_out", async () => {
  await using s = await startServer();
  const tag = marker();
  const quick = await s.call("execute", {
    command: "sleep 5",
    side_effects: NONE,
    timeout_ms: 200,
  });
  assert.equal(quick.payload.status, "timed_out");
  assert.equal(quick.payload.signal, "SIGTERM");
  // A TERM-trapping process survives the grace period, then dies by KILL.
  const stubborn = await s.call("execute", {
    command: "trap 'echo got-term' TERM; while true; do sleep 0.05; done",
    side_effects: NONE,
    env: { TEST_MARKER: tag },
    timeout_ms: 200,
    yield_ms: 0,
  });
  const waited = await s.call("wait", { execution_id: stubborn.payload.execution_id });
  assert.equal(waited.payload.status, "timed_out");
  assert.equal(waited.payload.wait_result, "exited");
  assert.equal(waited.payload.signal, "SIGKILL");
  assert.match(waited.payload.stdout, /got-term/);
  assert.ok(waited.payload.waited_ms >= 9_000, "the 10 s grace period was honoured");
  assert.deepEqual(processesWithMarker(tag), []);
});

posix.test("a shell whose descendants live on stays running until they exit", async () => {
  await using s = await startServer();
  // The descendant prints once the test says so (a file appears), however slow the machine.
  const dir = await Deno.makeTempDir();
  const go = `${dir}/go`;
  const { payload } = await s.call("execute", {
    command: `(while [ ! -e ${go} ]; do sleep 0.02; done; echo late) & echo early`,
    side_effects: NONE,
    yield_ms: 300,
  });
  assert.equal(payload.status, "backgrounded");
  assert.equal(payload.stdout, "early\n");
  const read = await s.call("read", { execution_id: payload.execution_id });
  assert.equal(read.payload.status, "running");
  assert.equal(read.payload.exit_code, 0);
  await Deno.writeTextFile(go, "");
  const waited = await s.call("wait", { execution_id: payload.execution_id });
  assert.equal(waited.payload.wait_result, "exited");
  assert.equal(waited.payload.status, "completed");
  assert.equal(waited.payload.stdout, "late\n", "output of a descendant holding the pipe is kept");
  await Deno.remove(dir, { recursive: true });
});

posix.test("a command that closes stdout and keeps running is still tracked", async () => {
  await using s = await startServer();
  const { payload } = await s.call("execute", {
    command: "echo bye; exec >&- 2>&-; sleep 0.5",
    side_effects: NONE,
    yield_ms: 100,
  });
  assert.equal(payload.status, "backgrounded");
  assert.equal(payload.stdout, "bye\n");
  const waited = await s.call("wait", { execution_id: payload.execution_id });
  assert.equal(waited.payload.status, "completed");
});

linux.test("descendants that leave the group with setsid: not waited for, but contained", async () => {
  const s = await startServer();
  const tag = marker();
  try {
    // Completion is the process group disappearing, so a detached daemon does not hold execute.
    const daemon = await s.call("execute", {
      command: "setsid sleep 60 >/dev/null 2>&1 < /dev/null & echo started",
      side_effects: NONE,
      env: { TEST_MARKER: tag },
    });
    assert.equal(daemon.payload.status, "completed");
    assert.equal(daemon.payload.stdout, "started\n");
    await eventually(() => processesWithMarker(tag).length === 1, 10_000, "setsid child");
    // A timeout reaches a descendant that left the group while the execution is live.
    const timed = await s.call("execute", {
      command: "setsid sleep 60 >/dev/null 2>&1 < /dev/null & sleep 60",
      side_effects: NONE,
      env: { TEST_MARKER: `${tag}_timed` },
      timeout_ms: 300,
    });
    assert.equal(timed.payload.status, "timed_out");
    await eventually(() => processesWithMarker(`${tag}_timed`).length === 0, 10_000, "timeout");
    assert.equal(processesWithMarker(tag).length, 1, "the finished record's daemon still runs");
    // Shutdown stops daemons of finished records too: nothing is left behind.
    await s.close();
    await waitForExit(s.pid);
    assert.deepEqual(processesWithMarker(tag), []);
  } finally {
    await s[Symbol.asyncDispose]();
  }
});

/** Only the SIGTERM case carries a TERM-trapping child: it proves the 10 s grace then KILL. */
function commandsFor(how: string): string[] {
  const base = ["sleep 60", "sleep 60 & sleep 60"];
  return how === "SIGTERM" ? [...base, "trap '' TERM; sleep 60 & wait"] : base;
}

for (const how of ["stdin EOF", "SIGTERM", "SIGINT", "SIGHUP"] as const) {
  linux.test(`shutdown on ${how} stops every execution and the server exits`, async () => {
    const s = await startServer();
    const tag = marker();
    try {
      for (const command of commandsFor(how)) {
        await s.call("execute", {
          command,
          side_effects: NONE,
          env: { TEST_MARKER: tag },
          yield_ms: 0,
        });
      }
      await eventually(() => processesWithMarker(tag).length >= 4, 10_000, "children");
      if (how === "stdin EOF") await s.close();
      else Deno.kill(s.pid, how);
      await waitForExit(s.pid, 30_000);
      assert.deepEqual(processesWithMarker(tag), []);
    } finally {
      await s[Symbol.asyncDispose]();
    }
  });
}

linux.test("a server killed with SIGKILL leaves no orphans: its guardian stops the groups", async () => {
  const s = await startServer();
  const tag = marker();
  try {
    for (
      const command of ["sleep 60", "sleep 60 & sleep 60", "setsid sleep 60 >/dev/null 2>&1 &"]
    ) {
      await s.call("execute", {
        command,
        side_effects: NONE,
        env: { TEST_MARKER: tag },
        yield_ms: 0,
      });
    }
    const done = await s.call("execute", { command: "echo done", side_effects: NONE });
    assert.equal(done.payload.status, "completed");
    await eventually(() => processesWithMarker(tag).length >= 4, 10_000, "children");
    Deno.kill(s.pid, "SIGKILL");
    await waitForExit(s.pid);
    await eventually(
      () => processesWithMarker(tag).length === 0,
      10_000,
      "guardian to stop the groups",
    );
  } finally {
    await s[Symbol.asyncDispose]();
  }
});
