import assert from "node:assert/strict";
import { startServer } from "./harness.ts";
import { linux, posix } from "../os.ts";

const NONE = ["NONE"];

function peakRssMiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match === null ? NaN : Number(match[1]) / 1024;
}

posix.test("bad arguments get clear schema errors and the server keeps serving", async (t) => {
  await using s = await startServer();
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["missing command", { side_effects: NONE }, /command/],
    ["wrong type", { command: 42, side_effects: NONE }, /command/],
    ["unknown key", { command: "true", side_effects: NONE, bogus: 1 }, /bogus|Unrecognized/i],
    ["lowercase side effect", { command: "true", side_effects: ["none"] }, /side_effects/],
    ["string for array", { command: "true", side_effects: "NONE" }, /side_effects/],
    ["fractional yield", { command: "true", side_effects: NONE, yield_ms: 1.5 }, /yield_ms/],
    ["env with number", { command: "true", side_effects: NONE, env: { A: 1 } }, /env/],
    ["huge command", { command: "x".repeat(2_000_000), side_effects: NONE }, /command/],
    ["deeply nested env", { command: "true", side_effects: NONE, env: nest(200) }, /env|maximum/],
  ];
  for (const [name, args, expected] of cases) {
    await t.step(name, async () => {
      const reply = await s.call("execute", args);
      assert.equal(reply.isError, true);
      assert.match(reply.text, expected);
    });
  }
  const wrongRead = await s.call("read", { execution_id: 5 });
  assert.equal(wrongRead.isError, true);
  const ok = await s.call("execute", { command: "echo alive", side_effects: NONE });
  assert.equal(ok.payload.stdout, "alive\n");
});

function nest(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: "x" };
  for (let i = 0; i < depth; i++) value = { inner: value };
  return value;
}

posix.test("NUL bytes are refused with a reason; binary output is normalized, not lost", async () => {
  await using s = await startServer();
  const nul = await s.call("execute", { command: "echo a\0b", side_effects: NONE });
  assert.equal(nul.payload.status, "failed_to_start");
  assert.match(nul.payload.error, /NUL/);
  const envNul = await s.call("execute", {
    command: "true",
    side_effects: NONE,
    env: { A: "x\0y" },
  });
  assert.match(envNul.payload.error, /NUL/);
  const binary = await s.call("execute", {
    command: "printf 'ok\\377\\376\\000end'",
    side_effects: NONE,
  });
  assert.equal(binary.payload.status, "completed");
  assert.equal(binary.payload.stdout, "ok\uFFFD\uFFFD\u0000end");
  assert.equal(binary.payload.next_seq, 1 + 2 + 6 + 1 + 3);
});

// Linux only: peak RSS comes from /proc/<pid>/status.
linux.test("a 1 GB output flood keeps server memory bounded by the buffer caps", async () => {
  // The ring buffer's eviction as the contract has it (spool: off); the bench measures the spool.
  await using s = await startServer({ env: { YIELDSHELL_SPOOL: "off" } });
  const before = peakRssMiB(s.pid);
  const { payload } = await s.call("execute", {
    command: "head -c 1000000000 /dev/zero | tr '\\0' 'x'; echo; echo tail-marker",
    side_effects: NONE,
    yield_ms: 55_000,
    timeout_ms: 120_000,
  });
  let result = payload;
  while (result.status === "backgrounded" || result.wait_result === "deadline_reached") {
    result = (await s.call("wait", { execution_id: payload.execution_id })).payload;
  }
  assert.equal(result.status, "completed");
  assert.equal(result.evicted, true);
  const ps = await s.call("ps", {});
  assert.equal(ps.payload.executions[0].stdout_bytes, 1_000_000_000 + 1 + 12);
  const tail = await s.call("read", { execution_id: payload.execution_id, tail_lines: 1 });
  assert.equal(tail.payload.stdout, "tail-marker\n");
  const growth = peakRssMiB(s.pid) - before;
  console.log(`1 GB flood: peak RSS grew ${growth.toFixed(1)} MiB (from ${before.toFixed(1)} MiB)`);
  assert.ok(growth < 128, `peak RSS grew ${growth.toFixed(1)} MiB during a 1 GB flood`);
});
