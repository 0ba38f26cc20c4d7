import assert from "node:assert/strict";
import type { Limits } from "../../src/contract/limits.ts";
import { fakeManager } from "./fake_manager.ts";
import type { FakeScript } from "./fake_processes.ts";

function manager(scripts: Map<string, FakeScript>, limits: Partial<Limits> = {}) {
  const { manager: m, ...rest } = fakeManager({ scripts, limits });
  return { m, ...rest };
}

/** The payload of an outcome whatever its variant, for field-by-field assertions. */
function fields(outcome: { payload: object }): Record<string, unknown> {
  return outcome.payload as Record<string, unknown>;
}

const alice = { owner: "alice" };
const bob = { owner: "bob" };
const NONE = ["NONE"];

Deno.test("executions are visible only to the session that started them", async () => {
  const { m } = manager(new Map([["hi", { stdout: ["hello"] }]]));
  const started = (await m.execute({ command: "hi", side_effects: NONE }, alice)).payload;
  assert.equal(started.status, "completed");
  const id = (started as { execution_id: string }).execution_id;
  assert.equal(fields(await m.read({ execution_id: id, since_seq: 1 }, alice)).stdout, "hello");
  const unknown = await m.read({ execution_id: id }, bob);
  assert.deepEqual(unknown.payload, {
    execution_id: id,
    error: `Unknown execution_id: ${id}`,
  });
  assert.equal(unknown.failed, true);
  assert.deepEqual(m.ps({}, bob).payload, { executions: [] });
  assert.equal(m.ps({}, alice).payload.executions.length, 1);
  assert.deepEqual(m.cleanup({ completed_older_than_ms: 0 }, bob).payload, { removed: 0 });
  assert.equal(
    (await m.stop({ execution_id: id }, bob)).payload.error,
    `Unknown execution_id: ${id}`,
  );
  assert.equal(m.hasLiveWork("alice"), false);
});

Deno.test("a record reaped before the response turns capped into unrecoverable evicted", async () => {
  const { m } = manager(new Map([["big", { stdout: ["x".repeat(100)] }]]), {
    maxRetainedProcesses: 0,
  });
  const reply = (await m.execute(
    { command: "big", side_effects: NONE, max_output_bytes: 10 },
    alice,
  )).payload as Record<string, unknown>;
  assert.equal("execution_id" in reply, false);
  assert.equal(reply.capped, false);
  assert.equal(reply.evicted, true);
  assert.equal(
    reply.hint,
    "Additional execution output was omitted and cannot be recovered because retention removed the completed record.",
  );
});

Deno.test("count retention removes the oldest terminal records first; running ones stay", async () => {
  const { m, advance } = manager(
    new Map([["a", {}], ["b", {}], ["c", {}], ["forever", { code: null }]]),
    { maxRetainedProcesses: 2 },
  );
  const idOf = (outcome: { payload: unknown }) =>
    (outcome.payload as { execution_id: string }).execution_id;
  const forever = await m.execute({ command: "forever", side_effects: NONE, yield_ms: 0 }, alice);
  assert.equal(m.hasLiveWork("alice"), true);
  assert.equal(m.hasLiveWork("bob"), false);
  const ids = [];
  for (const command of ["a", "b", "c"]) {
    ids.push(idOf(await m.execute({ command, side_effects: NONE }, alice)));
    advance(5);
  }
  await m.execute({ command: "a", side_effects: NONE }, alice);
  const listed = m.ps({}, alice).payload.executions.map((e) => e.execution_id);
  assert.equal(listed.includes(ids[0]), false);
  assert.equal(listed.includes(ids[1]), false);
  assert.equal(listed.includes(idOf(forever)), true);
  assert.equal(listed.length, 3);
  await m.shutdown();
});

Deno.test("age retention and cleanup go by the injected clock", async () => {
  const { m, advance } = manager(new Map([["a", {}]]), { processRetentionMs: 60_000 });
  await m.execute({ command: "a", side_effects: NONE }, alice);
  advance(59_000);
  assert.equal(m.ps({}, alice).payload.executions.length, 1);
  assert.equal(m.cleanup({ completed_older_than_ms: 60_000 }, alice).payload.removed, 0);
  advance(2_000);
  assert.equal(m.ps({}, alice).payload.executions.length, 0);
});

Deno.test("stop validates the signal before signalling anything", async () => {
  const { m, signals } = manager(new Map([["forever", { code: null }]]));
  const started = await m.execute({ command: "forever", side_effects: NONE, yield_ms: 0 }, alice);
  const id = (started.payload as { execution_id: string }).execution_id;
  const invalid = await m.stop({ execution_id: id, signal: "15" }, alice);
  assert.equal(invalid.payload.stopped, false);
  assert.match(invalid.payload.error as string, /^Invalid signal: '15'/);
  assert.equal(invalid.failed, true);
  assert.deepEqual(signals, []);
  const stopped = await m.stop({ execution_id: id, signal: "int" }, alice);
  assert.deepEqual(stopped.payload, {
    execution_id: id,
    stopped: true,
    signal: "SIGINT",
    error: null,
  });
  assert.equal(fields(await m.read({ execution_id: id }, alice)).status, "stopped");
});

Deno.test("execute refuses new work while shutting down", async () => {
  const { m } = manager(new Map());
  await m.shutdown();
  const refused = await m.execute({ command: "x", side_effects: NONE }, alice);
  assert.deepEqual(refused.payload, {
    status: "failed_to_start",
    error: "Server is shutting down",
  });
  assert.equal(refused.failed, true);
});

Deno.test("arguments no process could carry are refused before the policy runs", async () => {
  const asked: string[] = [];
  const { manager: m } = fakeManager({
    admit: (request) => {
      asked.push(request.command);
      return { allow: false, reason: "refused by policy" };
    },
  });
  const nul = await m.execute({ command: "echo a\0b", side_effects: NONE }, alice);
  assert.match(String((nul.payload as { error: string }).error), /NUL/);
  const env = await m.execute({ command: "true", side_effects: NONE, env: { "A=B": "x" } }, alice);
  assert.match(String((env.payload as { error: string }).error), /^Invalid env entry 'A=B'/);
  assert.deepEqual(asked, []);
  const policy = await m.execute({ command: "true", side_effects: NONE }, alice);
  assert.equal((policy.payload as { error: string }).error, "refused by policy");
});

Deno.test("a policy that could not load fails every start closed, with the reason", async () => {
  const ready = Promise.reject(new Error("grammar missing"));
  ready.catch(() => {});
  const { manager: m } = fakeManager({ ready });
  const refused = await m.execute({ command: "true", side_effects: NONE }, alice);
  assert.deepEqual(refused.payload, {
    status: "failed_to_start",
    error: "The command policy could not be loaded: grammar missing",
  });
});
