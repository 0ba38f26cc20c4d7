/**
 * The MCP layer alone: the real server factory and execution manager over the SDK's
 * InMemoryTransport, with in-memory processes, so every assertion is about the protocol side
 * (schemas, structured content, isError, progress, cancellation).
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { defaultConfig } from "../../src/config/schema.ts";
import { createServer } from "../../src/mcp/server.ts";
import { eventually } from "../e2e/harness.ts";
import { fakeManager } from "../core/fake_manager.ts";
import type { FakeScript } from "../core/fake_processes.ts";

const NONE = ["NONE"];

const SCRIPTS = new Map<string, FakeScript>([
  ["hi", { stdout: ["hello\n"] }],
  ["forever", { code: null }],
]);

/** A connected client, the fake processes' signal log, and a closer. */
async function connect() {
  const { manager, signals } = fakeManager({
    scripts: SCRIPTS,
    limits: { keepaliveIntervalMs: 10 },
    admit: (request) =>
      request.command === "refused"
        ? { allow: false, reason: "Refused by the test policy" }
        : { allow: true, cwd: "/tmp" },
  });
  const server = createServer(manager, {
    owner: "test",
    version: "0.0.0",
    settings: { ...defaultConfig("/tmp"), defaultShell: "/bin/sh" },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "yieldshell-mcp-test", version: "1.0.0" });
  await client.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown>) =>
    await client.callTool({ name, arguments: args }) as CallToolResult;
  return {
    client,
    call,
    signals,
    async close() {
      await manager.shutdown();
      await client.close();
      await server.close();
    },
  };
}

/** The structured payload, after checking that the text block carries the same object. */
// deno-lint-ignore no-explicit-any
function payloadOf(result: CallToolResult): Record<string, any> {
  const first = result.content?.[0];
  assert.equal(first?.type, "text");
  assert.deepEqual(JSON.parse(first?.type === "text" ? first.text : ""), result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

Deno.test("tools answer with structured content and the same object as JSON text", async () => {
  const session = await connect();
  try {
    const { tools } = await session.client.listTools();
    assert.equal(tools.length, 7);
    const done = await session.call("execute", { command: "hi", side_effects: NONE });
    assert.equal(done.isError, undefined);
    const payload = payloadOf(done);
    assert.equal(payload.status, "completed");
    assert.equal(payload.stdout, "hello\n");
    const listed = payloadOf(await session.call("ps", {}));
    assert.equal(listed.executions[0].execution_id, payload.execution_id);
  } finally {
    await session.close();
  }
});

Deno.test("isError is what the core says the outcome is, not a guess from the keys", async (t) => {
  const session = await connect();
  try {
    const done = payloadOf(await session.call("execute", { command: "hi", side_effects: NONE }));
    const cases: [string, string, Record<string, unknown>, boolean][] = [
      ["a refused start", "execute", { command: "refused", side_effects: NONE }, true],
      ["an unknown id", "read", { execution_id: "nope" }, true],
      [
        "a write to an ended execution",
        "write",
        { execution_id: done.execution_id, input: "x" },
        true,
      ],
      ["a negative cleanup age", "cleanup", { completed_older_than_ms: -1 }, true],
      ["a stop of an ended execution", "stop", { execution_id: done.execution_id }, false],
      ["a read", "read", { execution_id: done.execution_id }, false],
    ];
    for (const [what, tool, args, isError] of cases) {
      await t.step(what, async () => {
        const result = await session.call(tool, args);
        payloadOf(result);
        assert.equal(result.isError === true, isError, JSON.stringify(result.structuredContent));
      });
    }
  } finally {
    await session.close();
  }
});

Deno.test("progress reaches the client on the request that blocks", async () => {
  const session = await connect();
  try {
    const notes: Progress[] = [];
    const result = await session.client.callTool(
      { name: "execute", arguments: { command: "forever", side_effects: NONE, yield_ms: 200 } },
      undefined,
      { onprogress: (note: Progress) => notes.push(note) },
    ) as CallToolResult;
    assert.equal(payloadOf(result).status, "backgrounded");
    assert.ok(notes.length >= 1, "at least one notification inside the yield window");
    assert.match(notes[0].message ?? "", /^0 bytes of output so far$/);
  } finally {
    await session.close();
  }
});

Deno.test("a cancelled execute interrupts its execution with SIGINT", async () => {
  const session = await connect();
  try {
    const controller = new AbortController();
    const pending = session.client.callTool(
      { name: "execute", arguments: { command: "forever", side_effects: NONE } },
      undefined,
      { signal: controller.signal },
    );
    await eventually(
      async () => {
        const { executions } = payloadOf(await session.call("ps", {}));
        return executions.length === 1;
      },
      20_000,
      "the execution to start",
    );
    controller.abort();
    await assert.rejects(pending);
    await eventually(() => session.signals.length > 0, 20_000, "a signal");
    assert.equal(session.signals[0][1], "SIGINT");
  } finally {
    await session.close();
  }
});
