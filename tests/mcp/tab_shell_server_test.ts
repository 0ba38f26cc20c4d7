/**
 * The tab-shell tools in the MCP layer alone: the real server factory, task table and manager
 * over InMemoryTransport and in-memory processes (structured content, isError, the bare array
 * of list_background_tasks, cancellation).
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { TabShellTasks } from "../../src/core/tab_shell/tab_shell_tasks.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { createServer } from "../../src/mcp/server.ts";
import { eventually } from "../e2e/harness.ts";
import { fakeManager } from "../core/fake_manager.ts";

async function connect(only: boolean) {
  const { manager, signals } = fakeManager({
    scripts: new Map([["hi", { stdout: ["hello\n"] }], ["forever", { code: null }]]),
    admit: (request) =>
      request.command === "refused"
        ? { allow: false, reason: "Refused by the test policy" }
        : { allow: true, cwd: "/tmp" },
  });
  const tasks = new TabShellTasks(manager, {
    foregroundTimeoutMs: 0,
    backgroundTimeoutMs: 0,
    maxOutputLength: 50_000,
    truncation: "tail",
    defaultShell: "/bin/sh",
    keepaliveMs: 5_000,
    retentionMs: 3_600_000,
    clock: { nowMs: () => Date.now(), monotonicMs: () => performance.now() },
    logger: { warn: () => {} },
  });
  const server = createServer(manager, {
    settings: { ...defaultConfig("/tmp"), defaultShell: "/bin/sh" },
    owner: "test",
    version: "0.0.0",
    tabShell: { tasks, only },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "tab-shell-mcp-test", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    signals,
    call: async (name: string, args: Record<string, unknown> = {}) =>
      await client.callTool({ name, arguments: args }) as CallToolResult,
    async close() {
      await manager.shutdown();
      await client.close();
      await server.close();
    },
  };
}

function text(result: CallToolResult): string {
  const first = result.content?.[0];
  return first?.type === "text" ? first.text : "";
}

Deno.test("tab-shell tools: structured content, the same JSON text, and isError", async (t) => {
  const session = await connect(true);
  try {
    assert.equal((await session.client.listTools()).tools.length, 4);
    const cases: [string, string, Record<string, unknown>, boolean][] = [
      ["a command that ran", "execute_shell_command", { command: "hi" }, false],
      ["a rejected command", "execute_shell_command", { command: "refused" }, true],
      ["an unknown task", "get_task_status", { task_id: "nope" }, true],
      ["a stop of an unknown task", "stop_background_task", { task_id: "nope" }, true],
    ];
    for (const [what, tool, args, isError] of cases) {
      await t.step(what, async () => {
        const result = await session.call(tool, args);
        assert.deepEqual(JSON.parse(text(result)), result.structuredContent);
        assert.equal(result.isError === true, isError, text(result));
      });
    }
    await t.step("list: a bare array as text, wrapped as structured content", async () => {
      const started = await session.call("execute_shell_command", {
        command: "hi",
        background: true,
      });
      const id = (started.structuredContent as { task_id: string }).task_id;
      const listed = await session.call("list_background_tasks");
      const rows = JSON.parse(text(listed));
      assert.deepEqual(rows.map((row: { task_id: string }) => row.task_id), [id]);
      assert.deepEqual(listed.structuredContent, { tasks: rows });
    });
  } finally {
    await session.close();
  }
});

Deno.test("a cancelled foreground command is killed", async () => {
  const session = await connect(false);
  try {
    const controller = new AbortController();
    const pending = session.client.callTool(
      { name: "execute_shell_command", arguments: { command: "forever" } },
      undefined,
      { signal: controller.signal },
    );
    await eventually(
      async () => {
        const ps = await session.call("ps");
        return (ps.structuredContent as { executions: unknown[] }).executions.length === 1;
      },
      20_000,
      "the command to start",
    );
    controller.abort();
    await assert.rejects(pending);
    await eventually(() => session.signals.length > 0, 20_000, "a signal");
    assert.equal(session.signals[0][1], "SIGKILL");
  } finally {
    await session.close();
  }
});
