/**
 * Faults (issue #7): a client that disconnects mid-call, SIGTERM during an output flood, a
 * grandchild killed mid-read, a child that closes its pipes and lingers, 200 forked children,
 * and a stdin writer blocked on a full pipe. Each test ends with the documented result and no
 * orphan: every process a test starts carries a marker in its environment, and /proc is
 * searched for it (zombies count as dead, as PID 1 here does not reap orphans).
 *
 * These tests have no long variant: YIELDSHELL_LONG_TESTS does not change them.
 */
import assert from "node:assert/strict";
import {
  eventually,
  isAlive,
  marker,
  processesWithMarker,
  type Session,
  startServer,
  waitForExit,
} from "./harness.ts";
import { linux } from "../os.ts";

const NONE = ["NONE"];
/** Progress every 100 ms, so a test can tell that a blocking call has reached its handler. */
const FAST_PROGRESS = { YIELDSHELL_KEEPALIVE_INTERVAL_MS: "100" };

/** Starts a tool call and resolves `reached` once the server reports progress on it. */
function callInFlight(session: Session, name: string, args: Record<string, unknown>) {
  const reached = Promise.withResolvers<void>();
  const result = session.client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
    onprogress: () => reached.resolve(),
  });
  // The call is expected to fail when the connection goes; keep that from going unhandled.
  result.catch(() => {});
  return { reached: reached.promise, result };
}

/** Milliseconds `action` takes. */
async function timed<T>(action: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await action();
  return [value, performance.now() - started];
}

/** Waits for the server's stderr to show `pattern` (the pipe may deliver it after the exit). */
async function logged(session: Session, pattern: RegExp): Promise<void> {
  await eventually(() => pattern.test(session.stderr()), 5_000, `stderr to show ${pattern}`)
    .catch(() => assert.match(session.stderr(), pattern));
}

function argvOf(pid: number): string[] {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0");
  } catch {
    return [];
  }
}

for (const tool of ["wait", "execute"] as const) {
  linux.test(`client disconnect during ${tool}: the server shuts down on stdin EOF and stops everything`, async () => {
    const s = await startServer({ env: FAST_PROGRESS });
    const tag = marker();
    try {
      const command = "sleep 60 & sleep 60 & wait";
      let call;
      if (tool === "wait") {
        const { payload } = await s.call("execute", {
          command,
          side_effects: NONE,
          env: { TEST_MARKER: tag },
          yield_ms: 0,
        });
        call = callInFlight(s, "wait", { execution_id: payload.execution_id });
      } else {
        call = callInFlight(s, "execute", {
          command,
          side_effects: NONE,
          env: { TEST_MARKER: tag },
          yield_ms: 30_000,
        });
      }
      await call.reached;
      await eventually(() => processesWithMarker(tag).length >= 3, 10_000, "the children");
      await s.client.close();
      await assert.rejects(call.result, /Connection closed/);
      await waitForExit(s.pid, 15_000);
      await logged(s, /shutting down \(stdin closed\)/);
      assert.deepEqual(processesWithMarker(tag), []);
    } finally {
      await s[Symbol.asyncDispose]();
    }
  });
}

linux.test("SIGTERM during an output flood: the server stops the flood and exits", async () => {
  const s = await startServer();
  const tag = marker();
  let flooding = true;
  let reads = 0;
  let reader: Promise<void> | null = null;
  try {
    const { payload } = await s.call("execute", {
      command: "yes flood | cat",
      side_effects: NONE,
      env: { TEST_MARKER: tag },
      yield_ms: 0,
    });
    const id = payload.execution_id;
    // A client keeps reading while the flood runs; it stops when the server goes away.
    reader = (async () => {
      while (flooding) {
        const read = await s.call("read", { execution_id: id }).catch(() => null);
        if (read === null) return;
        assert.equal(read.isError, false);
        reads++;
      }
    })();
    await eventually(
      async () => (await s.call("ps", {})).payload.executions[0].stdout_bytes > 20_000_000,
      30_000,
      "20 MB of output",
    );
    Deno.kill(s.pid, "SIGTERM");
    await waitForExit(s.pid, 20_000);
    await logged(s, /shutting down \(SIGTERM\); stopping 1 live execution/);
    assert.deepEqual(processesWithMarker(tag), []);
    assert.ok(reads > 0, "reads were served during the flood");
    console.log(`SIGTERM after ${reads} reads of the flood; server exited, no orphan`);
  } finally {
    flooding = false;
    await s[Symbol.asyncDispose]();
    await reader;
  }
});

linux.test("a grandchild killed with SIGKILL mid-read: the execution completes and reads keep working", async () => {
  await using s = await startServer();
  const tag = marker();
  const inner = "while :; do echo gc; sleep 0.01; done";
  const { payload } = await s.call("execute", {
    command: `sh -c '${inner}' & i=0; while [ $i -lt 60 ]; do echo "p $i"; i=$((i+1)); ` +
      `sleep 0.02; done; wait`,
    side_effects: NONE,
    env: { TEST_MARKER: tag },
    yield_ms: 0,
  });
  const id = payload.execution_id;
  let stdout: string = payload.stdout;
  let killed: number | null = null;
  let status = "running";
  for (let polls = 0; status === "running"; polls++) {
    assert.ok(polls < 2_000, "the execution never finished");
    const read = await s.call("read", { execution_id: id });
    assert.equal(read.isError, false, read.text);
    stdout += read.payload.stdout;
    status = read.payload.status;
    if (killed === null && stdout.includes("gc\n") && stdout.includes("p 5\n")) {
      const grandchild = processesWithMarker(tag).find((pid) => argvOf(pid)[2] === inner);
      assert.ok(grandchild !== undefined, "the grandchild's loop is running");
      Deno.kill(grandchild, "SIGKILL");
      killed = grandchild;
    }
    if (status === "running") await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(killed !== null && !isAlive(killed));
  const waited = await s.call("wait", { execution_id: id, timeout_ms: 5_000 });
  assert.equal(waited.payload.wait_result, "exited");
  assert.equal(waited.payload.status, "completed");
  assert.equal(waited.payload.exit_code, 0);
  stdout += waited.payload.stdout;
  const parentLines = stdout.split("\n").filter((line) => line.startsWith("p "));
  assert.deepEqual(parentLines, Array.from({ length: 60 }, (_, i) => `p ${i}`));
  // Cursorless polling delivered everything exactly once: a full re-read is the same text.
  const again = await s.call("read", { execution_id: id, since_seq: 1, max_output_bytes: 20_000 });
  assert.equal(again.payload.capped, false);
  assert.equal(again.payload.stdout, stdout);
  assert.deepEqual(processesWithMarker(tag), []);
});

linux.test("a child that closes its pipes and lingers stays running until it exits", async () => {
  await using s = await startServer();
  const tag = marker();
  const started = performance.now();
  const { payload } = await s.call("execute", {
    command: "echo before; exec >&- 2>&-; sleep 1",
    side_effects: NONE,
    env: { TEST_MARKER: tag },
    yield_ms: 100,
  });
  assert.equal(payload.status, "backgrounded");
  assert.equal(payload.stdout, "before\n");
  let polls = 0;
  while (true) {
    const read = await s.call("read", { execution_id: payload.execution_id });
    if (read.payload.status !== "running") {
      assert.equal(read.payload.status, "completed");
      assert.equal(read.payload.exit_code, 0);
      break;
    }
    polls++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const endedAfterMs = performance.now() - started;
  assert.ok(polls >= 5, `status was running over several polls (${polls})`);
  assert.ok(endedAfterMs >= 1_000, `reported finished after ${endedAfterMs} ms, before sleep 1`);
  assert.ok(endedAfterMs < 3_000, `finished ${endedAfterMs} ms after start: no drain wait`);
  const ps = await s.call("ps", {});
  assert.ok(ps.payload.executions[0].duration_ms >= 1_000);
  assert.deepEqual(processesWithMarker(tag), []);
});

linux.test("a command that forks 200 children: stop ends all of them", async () => {
  await using s = await startServer();
  const tag = marker();
  const { payload } = await s.call("execute", {
    command: "for i in $(seq 200); do sleep 30 & done; wait",
    side_effects: NONE,
    env: { TEST_MARKER: tag },
    yield_ms: 0,
  });
  await eventually(() => processesWithMarker(tag).length >= 201, 20_000, "200 children");
  const [reply, stopMs] = await timed(() => s.call("stop", { execution_id: payload.execution_id }));
  assert.equal(reply.payload.stopped, true);
  assert.deepEqual(processesWithMarker(tag), []);
  assert.ok(stopMs < 5_000, `stop took ${stopMs} ms`);
  const read = await s.call("read", { execution_id: payload.execution_id });
  assert.equal(read.payload.status, "stopped");
});

linux.test("a stdin write blocked on a full pipe: others are served, stop ends the write", async () => {
  await using s = await startServer();
  const tag = marker();
  const { payload } = await s.call("execute", {
    command: "sleep 30",
    side_effects: NONE,
    env: { TEST_MARKER: tag },
    close_stdin: false,
    yield_ms: 0,
  });
  const id = payload.execution_id;
  let writeSettled = false;
  const write = s.call("write", { execution_id: id, input: "x".repeat(1_000_000) });
  write.finally(() => writeSettled = true).catch(() => {});
  // Requests are handled in order, so once these answer, the write is in its handler.
  for (let i = 0; i < 5; i++) {
    const [ps, psMs] = await timed(() => s.call("ps", {}));
    assert.equal(ps.payload.executions[0].status, "running");
    const [read, readMs] = await timed(() => s.call("read", { execution_id: id }));
    assert.equal(read.isError, false);
    assert.ok(psMs < 1_000 && readMs < 1_000, `ps ${psMs} ms, read ${readMs} ms`);
  }
  assert.equal(writeSettled, false, "the 1 MB write is still blocked on the 64 KiB pipe");
  const stop = await s.call("stop", { execution_id: id });
  assert.equal(stop.payload.stopped, true);
  const [written, afterStopMs] = await timed(() => write);
  assert.ok(afterStopMs < 2_000, `the blocked write returned ${afterStopMs} ms after stop`);
  assert.equal(written.payload.ok, false);
  assert.equal(written.isError, true);
  assert.match(written.payload.error, /\w{4,}/, `a useful error: ${written.payload.error}`);
  assert.notEqual(written.payload.error, "undefined");
  console.log(
    `blocked write ended ${afterStopMs.toFixed(0)} ms after stop: ${written.payload.error}`,
  );
  const echo = await s.call("execute", { command: "echo healthy", side_effects: NONE });
  assert.equal(echo.payload.stdout, "healthy\n");
  assert.deepEqual(processesWithMarker(tag), []);
});
