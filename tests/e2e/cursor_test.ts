import assert from "node:assert/strict";
import { type StartOptions, startServer as startWithSpool } from "./harness.ts";

/**
 * The contract's cursor and eviction rules as written for its ring buffer: `spool: off` is
 * today's retention exactly, so these tests run unchanged on it (tests/e2e/spool_test.ts covers
 * the spool and the default view).
 */
function startServer(options: StartOptions = {}) {
  return startWithSpool({ ...options, env: { YIELDSHELL_SPOOL: "off", ...options.env } });
}
import { posix } from "../os.ts";

const NONE = ["NONE"];

posix.test("cursorless polling returns each byte exactly once, with multi-byte characters", async () => {
  await using s = await startServer({ env: { YIELDSHELL_MAX_OUTPUT_BYTES: "7" } });
  // 3 × "€" (9 bytes) on stdout, "ab" on stderr, then "ü" (2 bytes) on stdout.
  const { payload } = await s.call("execute", {
    command: "printf '€€€'; sleep 0.05; printf 'ab' >&2; sleep 0.05; printf 'ü'",
    side_effects: NONE,
  });
  assert.equal(payload.status, "completed");
  assert.equal(payload.stdout, "€€");
  assert.equal(payload.capped, true);
  assert.equal(payload.next_seq, 7);
  assert.equal(payload.latest_seq, 14);
  assert.equal(
    payload.hint,
    `More output is available; read again to continue, or pass since_seq=7 explicitly (execution_id='${payload.execution_id}').`,
  );
  let out = payload.stdout;
  let err = payload.stderr;
  let previous = payload.next_seq;
  for (let i = 0; i < 10; i++) {
    const page = (await s.call("read", { execution_id: payload.execution_id })).payload;
    assert.ok(page.next_seq >= previous, "next_seq never moves backwards");
    previous = page.next_seq;
    out += page.stdout;
    err += page.stderr;
    if (!page.capped) break;
  }
  assert.equal(out, "€€€ü");
  assert.equal(err, "ab");
  assert.equal(previous, 14);

  // A one-byte page still makes progress by one whole character.
  const tiny = await s.call("read", {
    execution_id: payload.execution_id,
    since_seq: 1,
    max_output_bytes: 1,
  });
  assert.equal(tiny.payload.stdout, "€");
  assert.equal(tiny.payload.next_seq, 4);
  assert.match(tiny.payload.hint, /pass since_seq=4 to continue this read/);
});

posix.test("eviction drops the oldest output, reports it once, and cursors stay monotonic", async () => {
  await using s = await startServer({ env: { YIELDSHELL_MAX_BUFFER_BYTES: "64" } });
  const { payload } = await s.call("execute", {
    command: "for i in $(seq 1 40); do echo line$i; done",
    side_effects: NONE,
    max_output_bytes: 10,
  });
  assert.equal(payload.evicted, true);
  assert.equal(payload.capped, true);
  assert.match(payload.hint, /read again to continue.*Older execution output was dropped/);
  const full = await s.call("read", { execution_id: payload.execution_id, since_seq: 1 });
  assert.equal(full.payload.evicted, true);
  assert.ok(full.payload.start_seq > 1);
  assert.ok(full.payload.stdout.endsWith("line40\n"));
  assert.ok(new TextEncoder().encode(full.payload.stdout).length <= 64);
  // Reading from the end of retained data is caught up and not evicted.
  const end = await s.call("read", {
    execution_id: payload.execution_id,
    since_seq: full.payload.next_seq,
  });
  assert.equal(end.payload.evicted, false);
  assert.equal(end.payload.next_seq, full.payload.next_seq);
  assert.equal(end.payload.latest_seq, end.payload.next_seq);
  // A cursor beyond latest_seq is clamped, never echoed past it.
  const beyond = await s.call("read", { execution_id: payload.execution_id, since_seq: 10_000 });
  assert.equal(beyond.payload.next_seq, beyond.payload.latest_seq);
  const ps = await s.call("ps", {});
  assert.ok(ps.payload.executions[0].stdout_bytes > 64);
});

posix.test("tail_lines, narrowed streams and read validation", async () => {
  await using s = await startServer();
  const { payload } = await s.call("execute", {
    command: "echo out1; sleep 0.05; echo err1 >&2; sleep 0.05; echo out2",
    side_effects: NONE,
  });
  const id = payload.execution_id;
  const tail = await s.call("read", { execution_id: id, tail_lines: 2 });
  assert.equal(tail.payload.stdout, "out2\n");
  assert.equal(tail.payload.stderr, "err1\n");
  const errOnly = await s.call("read", { execution_id: id, streams: "stderr" });
  assert.equal(errOnly.payload.stderr, "err1\n");
  assert.equal("stdout" in errOnly.payload, false);
  const outOnly = await s.call("read", { execution_id: id, streams: "stdout" });
  assert.equal(outOnly.payload.stdout, "out1\nout2\n");
  assert.equal("stderr" in outOnly.payload, false);

  const both = await s.call("read", { execution_id: id, tail_lines: 1, since_seq: 1 });
  assert.equal(both.isError, true);
  assert.match(both.payload.error, /^tail_lines and since_seq are mutually exclusive/);
  const zero = await s.call("read", { execution_id: id, tail_lines: 0 });
  assert.equal(zero.payload.error, "tail_lines must be positive, got 0");
  const streams = await s.call("read", { execution_id: id, streams: "invalid" });
  assert.match(streams.payload.error, /^Invalid streams: 'invalid'/);
  const waitBoth = await s.call("wait", { execution_id: id, tail_lines: 1, since_seq: 1 });
  assert.equal(waitBoth.isError, true);
});

posix.test("truncation tail returns the newest bytes without consuming the cursor", async () => {
  await using s = await startServer();
  const { payload } = await s.call("execute", {
    command: "seq 1 1000",
    side_effects: NONE,
    max_output_bytes: 20,
    truncation: "tail",
  });
  assert.ok(payload.stdout.endsWith("999\n1000\n"));
  assert.equal(payload.capped, true);
  assert.match(payload.hint, /newest bytes/);
  // The head is still unread: a cursorless read starts at the beginning.
  const head = await s.call("read", { execution_id: payload.execution_id, max_output_bytes: 8 });
  assert.equal(head.payload.stdout, "1\n2\n3\n4\n");
});

Deno.test("unknown execution ids get the contract's structured error on every tool", async () => {
  await using s = await startServer();
  for (const tool of ["read", "wait", "stop", "write"]) {
    const args: Record<string, unknown> = { execution_id: "nope123" };
    if (tool === "write") args.input = "x";
    const reply = await s.call(tool, args);
    assert.equal(reply.isError, true, tool);
    assert.equal(reply.payload.execution_id, "nope123");
    assert.equal(reply.payload.error, "Unknown execution_id: nope123");
  }
  const { payload } = await s.call("execute", { command: "true", side_effects: NONE });
  const byPid = await s.call("read", { execution_id: String(payload.process_id) });
  assert.equal(byPid.payload.error, `Unknown execution_id: ${payload.process_id}`);
});
