import assert from "node:assert/strict";
import { ExecutionManager, type Limits } from "../../src/core/manager.ts";
import type { Platform, ShellExit, SpawnRequest } from "../../src/platform/types.ts";

const encoder = new TextEncoder();

/** A process that prints `stdout`, then exits with `code` (or waits for a signal when null). */
interface FakeScript {
  stdout?: string[];
  code?: number | null;
}

/** A platform whose processes are in-memory streams; signals end them. */
function fakePlatform(scripts: Map<string, FakeScript>) {
  const exits = new Map<number, (exit: ShellExit) => void>();
  const signals: [number, string][] = [];
  let nextPid = 1000;
  const platform: Platform = {
    name: "posix",
    pathListSeparator: ":",
    pathSeparator: "/",
    tokenVariable: null,
    shutdownSignals: ["SIGTERM"],
    defaultShell: () => "/bin/sh",
    shellArgv: (shell, command) => ({ program: shell, args: ["-c", command] }),
    spawn(request: SpawnRequest) {
      const script = scripts.get(request.command) ?? {};
      const pid = nextPid++;
      const { promise, resolve } = Promise.withResolvers<ShellExit>();
      exits.set(pid, resolve);
      if (script.code !== null) {
        queueMicrotask(() => resolve({ exitCode: script.code ?? 0, signal: null }));
      }
      return {
        pid,
        stdin: new WritableStream<Uint8Array>(),
        stdout: ReadableStream.from((script.stdout ?? []).map((s) => encoder.encode(s))),
        stderr: ReadableStream.from<Uint8Array>([]),
        exited: promise,
      };
    },
    isSignalSupported: (signal) => ["SIGTERM", "SIGKILL", "SIGINT"].includes(signal),
    signalGroup(pid, signal) {
      signals.push([pid, signal]);
      exits.get(pid)?.({ exitCode: -15, signal });
      return true;
    },
    signalProcesses() {},
    guard() {},
    releaseGroup() {},
    releaseToken() {},
    isGroupAlive: () => Promise.resolve(false),
    findTokenHolders: () => Promise.resolve(new Map()),
  };
  return { platform, signals };
}

const LIMITS: Limits = {
  maxOutputBytes: 20_000,
  maxBufferBytes: 262_144,
  maxProcesses: 50,
  defaultYieldMs: 5_000,
  maxYieldMs: 300_000,
  defaultTimeoutMs: 0,
  processRetentionMs: 3_600_000,
  maxRetainedProcesses: 100,
  keepaliveIntervalMs: 5_000,
  truncation: "head",
};

function manager(scripts: Map<string, FakeScript>, limits: Partial<Limits> = {}) {
  const { platform, signals } = fakePlatform(scripts);
  const m = new ExecutionManager({
    platform,
    admit: () => ({ allow: true, cwd: "/tmp" }),
    secretsFor: () => [],
    baseEnv: {},
    defaultShell: "/bin/sh",
    limits: { ...LIMITS, ...limits },
  });
  return { m, signals };
}

const alice = { owner: "alice" };
const bob = { owner: "bob" };
const NONE = ["NONE"];

Deno.test("executions are visible only to the session that started them", async () => {
  const { m } = manager(new Map([["hi", { stdout: ["hello"] }]]));
  const started = await m.execute({ command: "hi", side_effects: NONE }, alice);
  assert.equal(started.status, "completed");
  const id = started.execution_id as string;
  assert.equal(m.read({ execution_id: id, since_seq: 1 }, alice).stdout, "hello");
  assert.deepEqual(m.read({ execution_id: id }, bob), {
    execution_id: id,
    error: `Unknown execution_id: ${id}`,
  });
  assert.deepEqual(m.ps({}, bob), { executions: [] });
  assert.equal((m.ps({}, alice).executions as unknown[]).length, 1);
  assert.deepEqual(m.cleanup({ completed_older_than_ms: 0 }, bob), { removed: 0 });
  assert.equal((await m.stop({ execution_id: id }, bob)).error, `Unknown execution_id: ${id}`);
});

Deno.test("a record reaped before the response turns capped into unrecoverable evicted", async () => {
  const { m } = manager(new Map([["big", { stdout: ["x".repeat(100)] }]]), {
    maxRetainedProcesses: 0,
  });
  const reply = await m.execute(
    { command: "big", side_effects: NONE, max_output_bytes: 10 },
    alice,
  );
  assert.equal("execution_id" in reply, false);
  assert.equal(reply.capped, false);
  assert.equal(reply.evicted, true);
  assert.equal(
    reply.hint,
    "Additional execution output was omitted and cannot be recovered because retention removed the completed record.",
  );
});

Deno.test("count retention removes the oldest terminal records first; running ones stay", async () => {
  const { m } = manager(
    new Map([["a", {}], ["b", {}], ["c", {}], ["forever", { code: null }]]),
    { maxRetainedProcesses: 2 },
  );
  const forever = await m.execute({ command: "forever", side_effects: NONE, yield_ms: 0 }, alice);
  const ids = [];
  for (const command of ["a", "b", "c"]) {
    ids.push((await m.execute({ command, side_effects: NONE }, alice)).execution_id);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await m.execute({ command: "a", side_effects: NONE }, alice);
  const listed = (m.ps({}, alice).executions as { execution_id: string }[]).map((e) =>
    e.execution_id
  );
  assert.equal(listed.includes(ids[0] as string), false);
  assert.equal(listed.includes(ids[1] as string), false);
  assert.equal(listed.includes(forever.execution_id as string), true);
  assert.equal(listed.length, 3);
  await m.shutdown();
});

Deno.test("stop validates the signal before signalling anything", async () => {
  const { m, signals } = manager(new Map([["forever", { code: null }]]));
  const started = await m.execute({ command: "forever", side_effects: NONE, yield_ms: 0 }, alice);
  const id = started.execution_id as string;
  const invalid = await m.stop({ execution_id: id, signal: "15" }, alice);
  assert.equal(invalid.stopped, false);
  assert.match(invalid.error as string, /^Invalid signal: '15'/);
  assert.deepEqual(signals, []);
  const stopped = await m.stop({ execution_id: id, signal: "int" }, alice);
  assert.deepEqual(stopped, { execution_id: id, stopped: true, signal: "SIGINT", error: null });
  assert.equal(m.read({ execution_id: id }, alice).status, "stopped");
});

Deno.test("execute refuses new work while shutting down", async () => {
  const { m } = manager(new Map());
  await m.shutdown();
  assert.deepEqual(await m.execute({ command: "x", side_effects: NONE }, alice), {
    status: "failed_to_start",
    error: "Server is shutting down",
  });
});
