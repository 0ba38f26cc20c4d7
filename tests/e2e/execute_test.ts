import assert from "node:assert/strict";
import type { Progress, Tool } from "@modelcontextprotocol/sdk/types.js";
import { eventually, startServer } from "./harness.ts";
import { posix } from "../os.ts";

const NONE = ["NONE"];

Deno.test("tools/list declares the seven contract tools and search, with output schemas and honest annotations", async () => {
  await using s = await startServer();
  const { tools } = await s.client.listTools() as { tools: Tool[] };
  const byName = new Map(tools.map((t: Tool) => [t.name, t]));
  assert.deepEqual(
    [...byName.keys()].sort(),
    ["cleanup", "execute", "ps", "read", "search", "stop", "wait", "write"],
  );
  for (const tool of tools) {
    assert.equal(tool.outputSchema?.type, "object", `${tool.name} has an output schema`);
    assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name} rejects unknown keys`);
  }
  assert.equal(byName.get("read")?.annotations?.readOnlyHint, true);
  assert.equal(byName.get("ps")?.annotations?.readOnlyHint, true);
  assert.equal(byName.get("search")?.annotations?.readOnlyHint, true);
  assert.equal(byName.get("execute")?.annotations?.destructiveHint, true);
  assert.equal(byName.get("stop")?.annotations?.destructiveHint, true);
  for (const name of ["read", "write", "wait", "stop"]) {
    const description = byName.get(name)?.description ?? "";
    assert.match(description, /opaque/);
    assert.match(description, /passed? through unchanged/);
  }
  const sideEffects = byName.get("execute")?.inputSchema.properties?.side_effects as {
    items: { enum: string[] };
  };
  assert.equal(sideEffects.items.enum.length, 21);
  assert.deepEqual(sideEffects.items.enum, [...sideEffects.items.enum].sort());
});

posix.test("execute answers quick commands inline with structured content and JSON text", async () => {
  await using s = await startServer();
  const reply = await s.call("execute", {
    command: "printf 'hello\\n'; printf 'oops' >&2; exit 3",
    side_effects: NONE,
  });
  assert.equal(reply.isError, false);
  assert.deepEqual(JSON.parse(reply.text), reply.payload);
  const p = reply.payload;
  assert.equal(p.status, "completed");
  assert.match(p.execution_id, /^\w+$/);
  assert.equal(typeof p.process_id, "number");
  assert.equal(p.exit_code, 3);
  assert.equal(p.signal, null);
  assert.equal(p.stdout, "hello\n");
  assert.equal(p.stderr, "oops");
  assert.equal(p.start_seq, 1);
  assert.equal(p.next_seq, 11);
  assert.equal(p.latest_seq, 11);
  assert.equal(p.capped, false);
  assert.equal(p.evicted, false);
  assert.equal("hint" in p, false);
  assert.deepEqual(Object.keys(p).slice(0, 4), [
    "status",
    "execution_id",
    "process_id",
    "exit_code",
  ]);

  // The inline snapshot consumed the output: a cursorless read is empty, since_seq=1 re-reads.
  const again = await s.call("read", { execution_id: p.execution_id });
  assert.equal(again.payload.stdout, "");
  assert.equal(again.payload.next_seq, 11);
  const reread = await s.call("read", { execution_id: p.execution_id, since_seq: 1 });
  assert.equal(reread.payload.stdout, "hello\n");
  assert.equal(reread.payload.stderr, "oops");
});

posix.test("execute auto-yields into the background and wait reports the exit", async () => {
  await using s = await startServer();
  const started = await s.call("execute", {
    command: "echo first; sleep 0.6; echo second",
    side_effects: NONE,
    yield_ms: 150,
    name: "slow",
  });
  const p = started.payload;
  assert.equal(p.status, "backgrounded");
  assert.equal(
    p.message,
    "Execution is running in the background. Use read, wait, or stop with execution_id.",
  );
  assert.equal("exit_code" in p, false);
  assert.equal(p.stdout, "first\n");
  const ps = await s.call("ps", {});
  assert.equal(ps.payload.executions[0].status, "running");
  assert.equal(ps.payload.executions[0].name, "slow");
  assert.equal(ps.payload.executions[0].ended_at, null);
  const waited = await s.call("wait", { execution_id: p.execution_id });
  assert.equal(waited.payload.wait_result, "exited");
  assert.equal(waited.payload.status, "completed");
  assert.equal(waited.payload.exit_code, 0);
  assert.equal(waited.payload.stdout, "second\n");
  assert.equal(waited.payload.max_wait_ms, 55000);
  assert.ok(waited.payload.waited_ms > 0);
});

posix.test("yield_ms 0 starts in the background; wait deadline does not stop it", async () => {
  await using s = await startServer();
  const { payload } = await s.call("execute", {
    command: "sleep 30",
    side_effects: NONE,
    yield_ms: 0,
  });
  assert.equal(payload.status, "backgrounded");
  const waited = await s.call("wait", { execution_id: payload.execution_id, timeout_ms: 100 });
  assert.equal(waited.payload.wait_result, "deadline_reached");
  assert.equal(waited.payload.status, "running");
  assert.equal(waited.payload.max_wait_ms, 100);
  const capped = await s.call("wait", { execution_id: payload.execution_id, timeout_ms: -5 });
  assert.equal(capped.payload.max_wait_ms, 0);
  const stopped = await s.call("stop", { execution_id: payload.execution_id });
  assert.deepEqual(stopped.payload, {
    execution_id: payload.execution_id,
    stopped: true,
    signal: "SIGTERM",
    error: null,
  });
  const read = await s.call("read", { execution_id: payload.execution_id });
  assert.equal(read.payload.status, "stopped");
  assert.equal(read.payload.exit_code, -15);
  assert.equal(read.payload.signal, "SIGTERM");
});

posix.test("stdin: initial input, close_stdin, write with newline, EOF", async () => {
  await using s = await startServer();
  const closed = await s.call("execute", { command: "cat", side_effects: NONE, stdin: "piped in" });
  assert.equal(closed.payload.status, "completed");
  assert.equal(closed.payload.stdout, "piped in");
  const eof = await s.call("execute", { command: "cat; echo done", side_effects: NONE });
  assert.equal(eof.payload.stdout, "done\n");

  const open = await s.call("execute", {
    command: 'while read line; do echo "got $line"; done; echo bye',
    side_effects: NONE,
    close_stdin: false,
    yield_ms: 100,
  });
  const id = open.payload.execution_id;
  assert.equal(open.payload.status, "backgrounded");
  assert.deepEqual(
    (await s.call("write", { execution_id: id, input: "one", newline: true })).payload,
    {
      execution_id: id,
      ok: true,
    },
  );
  await s.call("write", { execution_id: id, input: "two\n", close_stdin: true });
  const done = await s.call("wait", { execution_id: id });
  assert.equal(done.payload.stdout, "got one\ngot two\nbye\n");
  const after = await s.call("write", { execution_id: id, input: "late" });
  assert.equal(after.isError, true);
  assert.equal(after.payload.error, "Execution is not running (status: completed)");

  const shut = await s.call("execute", { command: "sleep 5", side_effects: NONE, yield_ms: 0 });
  const refused = await s.call("write", { execution_id: shut.payload.execution_id, input: "x" });
  assert.equal(refused.payload.error, "Process stdin is closed");
  await s.call("stop", { execution_id: shut.payload.execution_id, signal: "KILL" });
});

posix.test("env overlay, non-interactive defaults, shell and name", async () => {
  await using s = await startServer();
  const { payload } = await s.call("execute", {
    command: 'echo "$FOO|$CI|$GIT_TERMINAL_PROMPT|$PAGER|$DEBIAN_FRONTEND"',
    side_effects: NONE,
    env: { FOO: "bar", PAGER: "less" },
    shell: "/bin/bash",
  });
  assert.equal(payload.stdout, "bar|true|0|less|noninteractive\n");
  const bashOnly = await s.call("execute", {
    command: "echo ${BASH_VERSION:+bash}",
    side_effects: NONE,
    shell: "bash",
  });
  assert.equal(bashOnly.payload.stdout, "bash\n");
});

posix.test("progress notifications arrive while execute blocks", async () => {
  await using s = await startServer({ env: { YIELDSHELL_KEEPALIVE_INTERVAL_MS: "100" } });
  const notes: { progress: number; message?: string }[] = [];
  const result = await s.client.callTool(
    {
      name: "execute",
      arguments: {
        command: "for i in 1 2 3 4 5; do echo line$i; sleep 0.15; done",
        side_effects: NONE,
      },
    },
    undefined,
    { onprogress: (note: Progress) => notes.push(note) },
  );
  assert.equal((result.structuredContent as { status: string }).status, "completed");
  assert.ok(notes.length >= 2, `expected progress notifications, got ${notes.length}`);
  for (let i = 1; i < notes.length; i++) assert.ok(notes[i].progress > notes[i - 1].progress);
  assert.ok(notes.some((n) => /bytes of output so far; last line: line\d/.test(n.message ?? "")));
});

posix.test("cancelling an in-flight execute stops the execution", async () => {
  await using s = await startServer();
  const controller = new AbortController();
  const pending = s.client.callTool(
    { name: "execute", arguments: { command: "sleep 30", side_effects: NONE, name: "cancel-me" } },
    undefined,
    { signal: controller.signal },
  );
  // deno-lint-ignore no-explicit-any
  const entry = async (): Promise<any> =>
    (await s.call("ps", {})).payload.executions.find((e: { name: string }) =>
      e.name === "cancel-me"
    );
  await eventually(async () => (await entry()) !== undefined, 20_000, "the execution to start");
  controller.abort();
  await assert.rejects(pending);
  await eventually(async () => (await entry()).status !== "running", 20_000, "the stop");
  assert.equal((await entry()).status, "stopped");
  const ps = await s.call("ps", {});
  assert.equal(ps.payload.executions[0].signal, "SIGINT");
});

posix.test("initial stdin that the command never reads is reported as stdin_error", async () => {
  await using s = await startServer();
  const { payload } = await s.call("execute", {
    command: "exit 0",
    side_effects: NONE,
    stdin: "x".repeat(4_000_000),
  });
  assert.equal(payload.status, "completed");
  let error: string | undefined = payload.stdin_error;
  await eventually(
    async () => {
      error ??= (await s.call("read", { execution_id: payload.execution_id })).payload.stdin_error;
      return error !== undefined;
    },
    20_000,
    "stdin_error",
  );
  assert.match(error ?? "", /pipe/i);
  const ps = await s.call("ps", {});
  assert.match(ps.payload.executions[0].stdin_error, /pipe/i);
});
