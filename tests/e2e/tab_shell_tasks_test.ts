/**
 * tab-shell-mcp's background tasks end to end: start, status while running and after each way
 * of ending, stop, list, TTL, keepalive progress on both transports, and `--tools both` mixing
 * both tool sets on one engine.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { eventually, isAlive, type Session, startServer } from "./harness.ts";
import { startHttpServer } from "./http_harness.ts";
import { startTabShell } from "./tab_shell_harness.ts";
import { linux, posix } from "../os.ts";

const TASK_KEYS = ["task_id", "command", "status", "created_at", "completed_at"];

/** Starts `command` in the background; returns its task id. */
async function background(s: Session, command: string, extra: Record<string, unknown> = {}) {
  const reply = await s.call("execute_shell_command", { command, background: true, ...extra });
  assert.equal(reply.isError, false, reply.text);
  return reply.payload.task_id as string;
}

/** Polls get_task_status until the task is no longer running; returns the last status. */
async function ended(s: Session, id: string) {
  let reply = await s.call("get_task_status", { task_id: id });
  await eventually(
    async () => {
      reply = await s.call("get_task_status", { task_id: id });
      return reply.payload.status !== "running";
    },
    20_000,
    `task ${id} to end`,
  );
  return reply;
}

posix.test("a background task from start to each end", async (t) => {
  await using s = await startTabShell();
  await t.step("start returns a task_id at once, while the command runs", async () => {
    const reply = await s.call("execute_shell_command", { command: "sleep 60", background: true });
    assert.deepEqual(Object.keys(JSON.parse(reply.text)), ["task_id", "status", "message"]);
    assert.match(reply.payload.task_id, /^[0-9a-f]{12}$/);
    assert.equal(reply.payload.status, "running");
    assert.equal(reply.payload.message, "Command started in background");
    const status = await s.call("get_task_status", { task_id: reply.payload.task_id });
    assert.deepEqual(Object.keys(JSON.parse(status.text)), TASK_KEYS, "no result while running");
    assert.equal(status.payload.status, "running");
    assert.equal(status.payload.command, "sleep 60");
    assert.equal(status.payload.completed_at, null);
    assert.ok(Math.abs(status.payload.created_at - Date.now() / 1000) < 600, "epoch seconds");
    await s.call("stop_background_task", { task_id: reply.payload.task_id });
  });
  await t.step("completed", async () => {
    const id = await background(s, "echo done");
    const reply = await ended(s, id);
    assert.deepEqual(Object.keys(JSON.parse(reply.text)), [...TASK_KEYS, "result"]);
    assert.equal(reply.payload.status, "completed");
    assert.ok(reply.payload.completed_at >= reply.payload.created_at);
    assert.equal(reply.payload.result.status, "success");
    assert.equal(reply.payload.result.stdout, "done\n");
    assert.equal(reply.payload.result.exit_code, 0);
  });
  await t.step("error", async () => {
    const reply = await ended(s, await background(s, "echo oops >&2; exit 4"));
    assert.equal(reply.payload.status, "error");
    assert.deepEqual(
      [reply.payload.result.status, reply.payload.result.exit_code, reply.payload.result.stderr],
      ["error", 4, "oops\n"],
    );
  });
  await t.step("timeout", async () => {
    const reply = await ended(s, await background(s, "echo begun; sleep 60", { timeout: 2 }));
    assert.equal(reply.payload.status, "timeout");
    assert.deepEqual(
      [reply.payload.result.status, reply.payload.result.exit_code, reply.payload.result.stdout],
      ["timeout", null, "begun\n"],
    );
  });
  await t.step("killed, keeping the output so far", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const id = await background(s, `echo partial; touch '${dir}/ready'; sleep 60`);
      await eventually(() => exists(`${dir}/ready`), 20_000, "the first line");
      const stopped = await s.call("stop_background_task", { task_id: id });
      assert.deepEqual(stopped.payload, { status: "stopped", task_id: id });
      const reply = await s.call("get_task_status", { task_id: id });
      assert.equal(reply.payload.status, "killed");
      // tab-shell-mcp kept no result for a killed task; the output so far is kept here.
      assert.deepEqual(
        [reply.payload.result.status, reply.payload.result.exit_code, reply.payload.result.stdout],
        ["error", -9, "partial\n"],
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

linux.test("stop kills the task's whole process group and says so only once", async () => {
  await using s = await startTabShell();
  const dir = await Deno.makeTempDir();
  let id = "";
  try {
    id = await background(s, `sleep 60 & echo $! > '${dir}/pid'; wait`);
    // The redirection creates the file before echo writes to it: wait for the whole line.
    const pid = () => exists(`${dir}/pid`) ? Deno.readTextFileSync(`${dir}/pid`) : "";
    await eventually(() => /^\d+\n$/.test(pid()), 20_000, "the child's pid");
    const child = Number(pid());
    assert.equal(isAlive(child), true);
    const stopped = await s.call("stop_background_task", { task_id: id });
    assert.equal(stopped.isError, false);
    assert.deepEqual(stopped.payload, { status: "stopped", task_id: id });
    const status = await s.call("get_task_status", { task_id: id });
    assert.equal(status.payload.status, "killed", "the kill has landed when stop returns");
    assert.equal(isAlive(child), false, "the child in the task's group is gone too");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const again = await s.call("stop_background_task", { task_id: id });
  assert.equal(again.isError, false);
  assert.deepEqual(again.payload, {
    status: "not_stopped",
    reason: "Task not found or not running",
  });
  const unknown = await s.call("stop_background_task", { task_id: "000000000000" });
  assert.equal(unknown.isError, true);
  assert.equal(unknown.payload.status, "not_stopped");
  const missing = await s.call("get_task_status", { task_id: "000000000000" });
  assert.equal(missing.isError, true);
  assert.deepEqual(JSON.parse(missing.text), { error: "Task '000000000000' not found" });
});

posix.test("list: a JSON array of this session's tasks, oldest first", async () => {
  await using s = await startTabShell();
  assert.equal((await s.call("list_background_tasks")).text, "[]");
  const first = await background(s, "sleep 60");
  await s.call("execute_shell_command", { command: "echo foreground" });
  const second = await background(s, "echo second");
  await ended(s, second);
  const list = await s.call("list_background_tasks");
  const rows = JSON.parse(list.text);
  assert.ok(Array.isArray(rows), "the text is a bare array, as tab-shell-mcp returns");
  assert.deepEqual(list.payload, { tasks: rows }, "structured content wraps it as an object");
  assert.deepEqual(rows.map((row: { task_id: string }) => row.task_id), [first, second]);
  assert.deepEqual(Object.keys(rows[0]), TASK_KEYS);
  assert.deepEqual(rows.map((row: { status: string }) => row.status), ["running", "completed"]);
  await s.call("stop_background_task", { task_id: first });
});

posix.test("completed tasks expire after the TTL; a TTL of 0 keeps them", async (t) => {
  await t.step("a short TTL", async () => {
    await using s = await startTabShell(["--completed-task-ttl", "0.3"]);
    const id = await background(s, "true");
    await ended(s, id);
    await eventually(
      async () => {
        const reply = await s.call("get_task_status", { task_id: id });
        return reply.payload.error === `Task '${id}' not found`;
      },
      20_000,
      "the record to expire",
    );
    assert.equal((await s.call("list_background_tasks")).text, "[]");
    const stop = await s.call("stop_background_task", { task_id: id });
    assert.equal(stop.payload.status, "not_stopped");
  });
  await t.step("0 keeps finished records (process_retention_ms 0 would reap them)", async () => {
    await using s = await startTabShell(["--completed-task-ttl", "0"]);
    const id = await background(s, "true");
    await ended(s, id);
    await background(s, "true"); // every start reaps first
    const reply = await s.call("get_task_status", { task_id: id });
    assert.equal(reply.payload.status, "completed");
  });
});

posix.test("answered foreground commands leave no record to crowd tasks out", async () => {
  await using s = await startTabShell(["--max-retained-processes", "1"]);
  const id = await background(s, "echo kept");
  await ended(s, id);
  for (let i = 0; i < 3; i++) await s.call("execute_shell_command", { command: "true" });
  const reply = await s.call("get_task_status", { task_id: id });
  assert.equal(reply.payload.status, "completed", reply.text);
});

posix.test("foreground calls send keepalive progress over stdio", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = `${dir}/config.yaml`;
    await Deno.writeTextFile(config, "keepalive_interval: 0.05\n");
    await using s = await startTabShell(["--config", config]);
    const notes = await runWithProgress(s.client, dir);
    assertKeepalive(notes);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

posix.test("foreground calls send keepalive progress over streamable HTTP", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await using server = await startHttpServer({
      args: ["--tools", "tab-shell"],
      env: { YIELDSHELL_KEEPALIVE_INTERVAL_MS: "50" },
    });
    const client = new Client({ name: "tab-shell-http-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      assertKeepalive(await runWithProgress(client, dir));
      // Tasks belong to the session that started them.
      const other = new Client({ name: "tab-shell-http-e2e-2", version: "1.0.0" });
      await other.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const started = await client.callTool({
        name: "execute_shell_command",
        arguments: { command: "sleep 60", background: true },
      }) as CallToolResult;
      const id = (started.structuredContent as { task_id: string }).task_id;
      const foreign = await other.callTool({
        name: "get_task_status",
        arguments: { task_id: id },
      }) as CallToolResult;
      assert.deepEqual(foreign.structuredContent, { error: `Task '${id}' not found` });
      await client.callTool({ name: "stop_background_task", arguments: { task_id: id } });
      await other.close();
    } finally {
      await client.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Runs a foreground command that waits for a file the progress handler creates after two
 * notifications, so the proof does not depend on timing.
 */
async function runWithProgress(client: Client, dir: string): Promise<Progress[]> {
  const notes: Progress[] = [];
  const result = await client.callTool(
    {
      name: "execute_shell_command",
      arguments: { command: `while [ ! -e '${dir}/go' ]; do sleep 0.02; done; echo released` },
    },
    undefined,
    {
      onprogress: (note: Progress) => {
        notes.push(note);
        if (notes.length === 2) Deno.writeTextFileSync(`${dir}/go`, "");
      },
      timeout: 60_000,
    },
  ) as CallToolResult;
  assert.equal((result.structuredContent as { stdout: string }).stdout, "released\n");
  return notes;
}

function assertKeepalive(notes: Progress[]): void {
  assert.ok(notes.length >= 2, `got ${notes.length} progress notifications`);
  for (const note of notes) {
    assert.match(note.message ?? "", /^Command still running \(\d+s elapsed\)\.\.\.$/);
  }
  for (let i = 1; i < notes.length; i++) {
    assert.ok(notes[i].progress > notes[i - 1].progress, "progress increases (MCP requires it)");
  }
}

posix.test("--tools both: one engine under both tool sets", async (t) => {
  await using s = await startServer({ args: ["--tools", "both"] });
  await t.step("a task read and waited on with read and wait", async () => {
    const id = await background(s, "echo mixed; echo more");
    const waited = await s.call("wait", { execution_id: id });
    assert.equal(waited.payload.wait_result, "exited");
    const read = await s.call("read", { execution_id: id, since_seq: 1 });
    assert.equal(read.payload.stdout, "mixed\nmore\n");
    const ps = await s.call("ps");
    assert.ok(ps.payload.executions.some((e: { execution_id: string }) => e.execution_id === id));
  });
  await t.step("an execution followed and stopped with the task tools", async () => {
    const started = await s.call("execute", {
      command: "sleep 60",
      side_effects: ["NONE"],
      yield_ms: 0,
    });
    const id = started.payload.execution_id;
    assert.equal((await s.call("get_task_status", { task_id: id })).payload.status, "running");
    const stopped = await s.call("stop_background_task", { task_id: id });
    assert.equal(stopped.payload.status, "stopped");
    const read = await s.call("read", { execution_id: id });
    assert.equal(read.payload.status, "stopped");
    const listed = await s.call("list_background_tasks");
    assert.ok(listed.payload.tasks.some((task: { task_id: string }) => task.task_id === id));
  });
  await t.step("the side-effect blocklist still guards execute", async () => {
    const refused = await s.call("execute", {
      command: "true",
      side_effects: ["RUNS_INLINE_CODE"],
    });
    assert.equal(refused.payload.status, "failed_to_start");
  });
});
