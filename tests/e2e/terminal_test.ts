/**
 * Terminal mode (`tty: true`) end to end: the server started as `deno task start:tty` does, real
 * programs on real pseudo-terminals, driven through the SDK client; processes checked in /proc.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import assert from "node:assert/strict";
import { FFI_MISSING } from "../../src/platform/pty/mod.ts";
import {
  eventually,
  isAlive,
  marker,
  processesWithMarker,
  type Session,
  startServer,
  type ToolReply,
  waitForExit,
} from "./harness.ts";
import { linux, posix } from "../os.ts";

const NONE = ["NONE"];
const ESCAPE = "\x1b";

function startTtyServer(): Promise<Session> {
  return startServer({ permissionSet: "tty" });
}

/** An interactive bash on a terminal, waiting at its `$ ` prompt. */
async function startBash(s: Session, tag: string): Promise<string> {
  const started = await s.call("execute", {
    command: "exec bash --norc --noprofile -i",
    side_effects: NONE,
    tty: true,
    env: { PS1: "$ ", TEST_MARKER: tag },
  });
  assert.equal(started.payload.status, "backgrounded", started.text);
  assert.equal(started.payload.awaiting_input, "prompt", started.text);
  return started.payload.execution_id;
}

/**
 * Waits (cursorless, so each byte once) until the output since the call matches `wanted`; a
 * busy machine may pause the program long enough to look like a prompt before it answers.
 */
async function waitForOutput(s: Session, id: string, wanted: RegExp): Promise<ToolReply> {
  let stdout = "";
  for (let attempt = 1;; attempt++) {
    const reply = await s.call("wait", { execution_id: id, timeout_ms: 20_000 });
    stdout += reply.payload.stdout;
    if (wanted.test(stdout)) return { ...reply, payload: { ...reply.payload, stdout } };
    assert.equal(reply.payload.status, "running", `${reply.text} before ${wanted}`);
    assert.ok(attempt < 5, `no ${wanted} in ${JSON.stringify(stdout)}`);
  }
}

linux.test("python3 without -i answers print(6*7) with 42 and says when it waits", async () => {
  await using s = await startTtyServer();
  const started = await s.call("execute", { command: "python3 -q", side_effects: NONE, tty: true });
  assert.equal(started.payload.status, "backgrounded");
  assert.equal(started.payload.stdout, ">>> ");
  assert.equal(started.payload.stderr, "");
  assert.deepEqual(started.payload.tty, { cols: 120, rows: 40, view: "text", output: "stdout" });
  assert.equal(started.payload.awaiting_input, "prompt");
  const id = started.payload.execution_id;
  const written = await s.call("write", { execution_id: id, input: "print(6*7)", newline: true });
  assert.deepEqual(written.payload, { execution_id: id, ok: true });
  const answered = await waitForOutput(s, id, />>> $/);
  assert.equal(answered.payload.wait_result, "awaiting_input");
  assert.equal(answered.payload.stdout, "print(6*7)\n42\n>>> ");
  assert.equal(answered.payload.awaiting_input, "prompt");
  await s.call("write", { execution_id: id, keys: ["C-d"] });
  const ended = await s.call("wait", { execution_id: id });
  assert.equal(ended.payload.wait_result, "exited");
  assert.equal(ended.payload.exit_code, 0);
  assert.equal(ended.payload.awaiting_input, null);
});

linux.test("top -n 1 renders a screen; the raw and text views are there too", async () => {
  await using s = await startTtyServer();
  const top = await s.call("execute", {
    command: "top -n 1",
    side_effects: NONE,
    tty: true,
    cols: 100,
    rows: 30,
    env: { COLUMNS: "", LINES: "" },
  });
  assert.equal(top.payload.status, "completed", top.text);
  assert.equal(top.payload.tty.view, "screen", "a program that paints the screen is shown as one");
  assert.deepEqual([top.payload.tty.cols, top.payload.tty.rows], [100, 30]);
  assert.match(top.payload.stdout, /PID\s+USER.*COMMAND/);
  assert.ok(!top.payload.stdout.includes(ESCAPE));
  assert.ok(top.payload.stdout.split("\n").length <= 30, "no more rows than the screen has");
  const id = top.payload.execution_id;
  const raw = await s.call("read", { execution_id: id, since_seq: 1, view: "raw" });
  assert.equal(raw.payload.tty.view, "raw");
  assert.ok(raw.payload.stdout.includes(`${ESCAPE}[`), "raw keeps the escape sequences");
  assert.equal(raw.payload.start_seq, 1);
  const text = await s.call("read", { execution_id: id, since_seq: 1, view: "text" });
  assert.equal(text.payload.tty.view, "text");
  assert.match(text.payload.stdout, /Tasks:/);
  assert.ok(!text.payload.stdout.includes(ESCAPE));
  assert.equal(
    text.payload.next_seq,
    raw.payload.next_seq,
    "cursors count raw bytes in every view",
  );
});

linux.test("C-c interrupts a sleep in the terminal's shell and the shell survives", async () => {
  await using s = await startTtyServer();
  const tag = marker();
  const id = await startBash(s, tag);
  const shell = processesWithMarker(tag);
  assert.equal(shell.length, 1);
  await s.call("write", { execution_id: id, input: "sleep 1000", newline: true });
  await eventually(() => processesWithMarker(tag).length === 2, 20_000, "sleep to run");
  const sleeper = processesWithMarker(tag).find((pid) => pid !== shell[0]) ?? 0;
  const interrupted = await s.call("write", { execution_id: id, keys: ["C-c"] });
  assert.equal(interrupted.payload.ok, true, interrupted.text);
  const back = await waitForOutput(s, id, /\$ $/);
  assert.equal(back.payload.wait_result, "awaiting_input", back.text);
  await waitForExit(sleeper);
  assert.ok(isAlive(shell[0]), "the shell survives C-c");
  await s.call("write", { execution_id: id, input: "echo alive-$((6*7))", newline: true });
  await waitForOutput(s, id, /^alive-42\n/m);
  assert.equal((await s.call("stop", { execution_id: id })).payload.stopped, true);
  assert.deepEqual(processesWithMarker(tag), []);
});

linux.test("a password prompt is awaiting input and the typed secret never appears", async () => {
  await using s = await startTtyServer();
  const secret = `hunter2-${crypto.randomUUID().slice(0, 8)}`;
  const replies: ToolReply[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const reply = await s.call(name, args);
    replies.push(reply);
    return reply;
  };
  const asked = await call("execute", {
    command: `read -s -p 'Password: ' pw; echo; echo "you typed $pw"; read -p 'Name: ' name; ` +
      `echo "hi $name"`,
    shell: "/bin/bash",
    side_effects: NONE,
    tty: true,
  });
  assert.equal(asked.payload.status, "backgrounded");
  assert.equal(asked.payload.awaiting_input, "password");
  assert.equal(asked.payload.stdout, "Password: ");
  const id = asked.payload.execution_id;
  await call("write", { execution_id: id, input: secret, newline: true });
  const named = await call("wait", { execution_id: id });
  assert.equal(named.payload.wait_result, "awaiting_input");
  assert.equal(named.payload.awaiting_input, "prompt");
  assert.equal(named.payload.stdout, "\nyou typed [REDACTED:TTY_INPUT]\nName: ");
  await call("write", { execution_id: id, input: "bob", newline: true });
  const done = await call("wait", { execution_id: id });
  assert.equal(done.payload.wait_result, "exited");
  assert.match(done.payload.stdout, /hi bob/);
  for (const view of ["raw", "text", "screen"]) {
    const all = await call("read", { execution_id: id, since_seq: 1, view });
    assert.match(all.payload.stdout, /\[REDACTED:TTY_INPUT\]/, view);
  }
  await call("ps", {});
  for (const reply of replies) assert.ok(!reply.text.includes(secret), reply.text);
  assert.ok(!s.stderr().includes(secret), "nor in the server's log");
});

linux.test("a resize reaches the program (stty size) and the results", async () => {
  await using s = await startTtyServer();
  const first = await s.call("execute", {
    command: "stty size; read -p 'go? ' _; stty size",
    shell: "/bin/bash",
    side_effects: NONE,
    tty: true,
    cols: 100,
    rows: 30,
  });
  assert.equal(first.payload.stdout, "30 100\ngo? ");
  const id = first.payload.execution_id;
  const resized = await s.call("write", { execution_id: id, cols: 90, rows: 25, newline: true });
  assert.equal(resized.payload.ok, true, resized.text);
  const second = await s.call("wait", { execution_id: id });
  assert.equal(second.payload.wait_result, "exited");
  assert.equal(second.payload.stdout, "\n25 90\n");
  assert.deepEqual([second.payload.tty.cols, second.payload.tty.rows], [90, 25]);
});

linux.test("stop, timeout and shutdown leave no process of the session behind", async (t) => {
  await t.step("stop: an interactive shell, a foreground and a background job", async () => {
    await using s = await startTtyServer();
    const tag = marker();
    const id = await startBash(s, tag);
    await s.call("write", { execution_id: id, input: "sleep 1000 & sleep 1001", newline: true });
    await eventually(() => processesWithMarker(tag).length === 3, 20_000, "both jobs");
    const stopped = await s.call("stop", { execution_id: id });
    assert.equal(stopped.payload.stopped, true, stopped.text);
    assert.deepEqual(processesWithMarker(tag), []);
    const read = await s.call("read", { execution_id: id });
    assert.equal(read.payload.status, "stopped");
    assert.equal(read.payload.signal, "SIGHUP", "the shell ignores SIGTERM and obeys the hangup");
  });
  await t.step("timeout: jobs in process groups of their own", async () => {
    await using s = await startTtyServer();
    const tag = marker();
    const timed = await s.call("execute", {
      command: "set -m; sleep 1000 & sleep 1001 & echo started; wait",
      shell: "/bin/bash",
      side_effects: NONE,
      tty: true,
      timeout_ms: 1_000,
      yield_ms: 0,
      env: { TEST_MARKER: tag },
    });
    const id = timed.payload.execution_id;
    const waited = await s.call("wait", { execution_id: id });
    assert.equal(waited.payload.status, "timed_out", waited.text);
    assert.deepEqual(processesWithMarker(tag), []);
  });
  await t.step("shutdown: the server's stdin closes", async () => {
    const s = await startTtyServer();
    const tag = marker();
    try {
      const id = await startBash(s, tag);
      await s.call("write", { execution_id: id, input: "sleep 1000 & sleep 1001", newline: true });
      await eventually(() => processesWithMarker(tag).length === 3, 20_000, "both jobs");
      await s.close();
      await waitForExit(s.pid);
      assert.deepEqual(processesWithMarker(tag), []);
    } finally {
      await s[Symbol.asyncDispose]();
    }
  });
});

linux.test("a daemon that leaves the terminal's session is still stopped, through its token", async () => {
  await using s = await startTtyServer();
  const tag = marker();
  const started = await s.call("execute", {
    command: "setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo started; sleep 1001",
    side_effects: NONE,
    tty: true,
    yield_ms: 0,
    env: { TEST_MARKER: tag },
  });
  const id = started.payload.execution_id;
  await eventually(() => processesWithMarker(tag).length === 3, 20_000, "shell, sleep and daemon");
  assert.equal((await s.call("stop", { execution_id: id })).payload.stopped, true);
  await eventually(() => processesWithMarker(tag).length === 0, 20_000, "nothing left");
});

linux.test("the command policy holds for terminal executions", async () => {
  await using s = await startServer({ permissionSet: "tty", args: ["--blacklist", "top"] });
  const refused = await s.call("execute", { command: "top -n 1", side_effects: NONE, tty: true });
  assert.equal(refused.payload.status, "failed_to_start");
  assert.match(refused.payload.error, /top/);
});

linux.test("stdin stays open with tty unless close_stdin, which types C-d", async () => {
  await using s = await startTtyServer();
  const open = await s.call("execute", {
    command: "cat",
    side_effects: NONE,
    tty: true,
    stdin: "hello\n",
    yield_ms: 0,
  });
  const id = open.payload.execution_id;
  // The terminal echoes typed text at once and cat answers when it runs: wait for cat.
  await eventually(
    async () =>
      (await s.call("read", { execution_id: id, since_seq: 1, view: "text" })).payload.stdout ===
        "hello\nhello\n",
    20_000,
    "cat's copy of the initial input",
  );
  await s.call("write", { execution_id: id, input: "more", newline: true });
  await s.call("write", { execution_id: id, close_stdin: true });
  const ended = await s.call("wait", { execution_id: id });
  assert.equal(ended.payload.wait_result, "exited", ended.text);
  // Cursorless pages return each byte once: execute's page may already hold the first echo.
  assert.equal(
    `${open.payload.stdout ?? ""}${ended.payload.stdout}`,
    "hello\nhello\nmore\nmore\n",
  );
  const closed = await s.call("execute", {
    command: "cat",
    side_effects: NONE,
    tty: true,
    stdin: "once\n",
    close_stdin: true,
  });
  assert.equal(closed.payload.status, "completed", closed.text);
  assert.equal(closed.payload.stdout, "once\nonce\n");
});

linux.test("terminal arguments that cannot work are refused with what to do", async () => {
  await using s = await startTtyServer();
  const sized = await s.call("execute", { command: "true", side_effects: NONE, cols: 80 });
  assert.equal(sized.isError, true);
  assert.match(sized.payload.error, /^Cannot use cols or rows without tty: true/);
  const narrow = await s.call("execute", {
    command: "true",
    side_effects: NONE,
    tty: true,
    cols: 1,
  });
  assert.equal(
    narrow.payload.error,
    "Cannot size the terminal as cols must be an integer from 2 to 1000: received 1",
  );
  const piped = await s.call("execute", {
    command: "cat",
    side_effects: NONE,
    close_stdin: false,
    yield_ms: 0,
  });
  const id = piped.payload.execution_id;
  const keys = await s.call("write", { execution_id: id, keys: ["C-c"] });
  assert.equal(keys.isError, true);
  assert.match(keys.payload.error, /^Cannot send keys to execution '[0-9a-f]+' as it runs without/);
  const screen = await s.call("read", { execution_id: id, view: "screen" });
  assert.equal(screen.isError, true);
  assert.match(screen.payload.error, /^Cannot show the screen view of execution/);
  const raw = await s.call("read", { execution_id: id, view: "raw" });
  assert.equal(raw.isError, false, "raw is how pipes read anyway");
  assert.equal(raw.payload.tty, undefined, "pipe results are the contract's");
  await s.call("stop", { execution_id: id });
  const shell = await startBash(s, marker());
  const typo = await s.call("write", { execution_id: shell, keys: ["Entr"] });
  assert.equal(typo.isError, true);
  assert.match(typo.payload.error, /did you mean "Enter"/);
  await s.call("stop", { execution_id: shell });
});

posix.test("a tty call to a server without the ffi permission says how to start one", async () => {
  await using s = await startServer();
  const refused = await s.call("execute", { command: "true", side_effects: NONE, tty: true });
  assert.equal(refused.isError, true);
  assert.deepEqual(refused.payload, { status: "failed_to_start", error: FFI_MISSING });
  const piped = await s.call("execute", { command: "echo fine", side_effects: NONE });
  assert.equal(piped.payload.stdout, "fine\n");
});

/**
 * tools/list of a server that can open terminals stays below this many bytes (the pipe-only
 * listing's budget plus 1.6 KB for the terminal parameters and result fields).
 */
const TTY_LIST_BUDGET_BYTES = 23_000;

linux.test("tools/list names the terminal parameters only where terminals work", async () => {
  const listed = async (s: Session) => {
    const { tools } = await s.client.listTools() as { tools: Tool[] };
    const bytes = new TextEncoder().encode(JSON.stringify({ tools })).length;
    const inputs = Object.fromEntries(
      tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {})]),
    );
    return { bytes, inputs };
  };
  {
    await using s = await startTtyServer();
    const { bytes, inputs } = await listed(s);
    console.log(`tools/list with terminals: ${bytes} bytes`);
    assert.ok(bytes <= TTY_LIST_BUDGET_BYTES, `tools/list is ${bytes} bytes`);
    for (const name of ["tty", "cols", "rows"]) assert.ok(inputs.execute.includes(name), name);
    for (const name of ["keys", "cols", "rows"]) assert.ok(inputs.write.includes(name), name);
    assert.ok(inputs.read.includes("view") && inputs.wait.includes("view"));
  }
  await using s = await startServer();
  const { inputs } = await listed(s);
  assert.ok(inputs.execute.includes("tty"), "tty stays, to say why it fails");
  for (const name of ["cols", "rows"]) assert.ok(!inputs.execute.includes(name), name);
  for (const name of ["keys", "cols", "rows"]) assert.ok(!inputs.write.includes(name), name);
  assert.ok(!inputs.read.includes("view") && !inputs.wait.includes("view"));
});
