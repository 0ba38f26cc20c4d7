import assert from "node:assert/strict";
import { initializeRequest, RawStdio } from "./raw_stdio.ts";

/**
 * The stdio wire as a client that is not the SDK may drive it: lines that are not JSON-RPC are
 * skipped with a warning on stderr, a message split across writes is read whole, CRLF works, and
 * the server keeps answering.
 */
Deno.test("stdio: bad lines are skipped with a warning and the session goes on", async () => {
  const wire = new RawStdio();
  let closed;
  try {
    await wire.write(`${JSON.stringify(initializeRequest(1))}\r\n`);
    await wire.until((message) => message.id === 1);
    await wire.write('not json\n{"jsonrpc":"1.0","id":2,"method":"ping"}\n');
    // One request cut in three writes.
    for (const part of ['{"jsonrpc":"2.0",', '"id":3,"meth', 'od":"ping"}\n']) {
      await wire.write(part);
    }
    assert.deepEqual(await wire.until((message) => message.id === 3), {
      result: {},
      jsonrpc: "2.0",
      id: 3,
    });
  } finally {
    closed = await wire.close();
  }
  assert.equal(closed.code, 0);
  assert.match(closed.stderr, /warning: Skipped a stdin line that is not JSON/);
  assert.match(
    closed.stderr,
    /warning: Skipped a stdin line that is not a JSON-RPC message: jsonrpc must be "2.0"/,
  );
  assert.ok(!wire.received.some((message) => message.id === 2), "the 1.0 ping is not answered");
});

Deno.test("stdio: the wait that sees an exit is answered before the word about that exit", async () => {
  const wire = new RawStdio();
  const call = (id: number, name: string, args: Record<string, unknown>) =>
    wire.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
  try {
    await wire.initialize();
    await call(2, "execute", { command: "sleep 0.3", side_effects: ["NONE"], yield_ms: 0 });
    const started = await wire.until((message) => message.id === 2);
    const id = started.result?.structuredContent?.execution_id;
    await call(3, "wait", { execution_id: id, timeout_ms: 10_000 });
    const reply = await wire.until((message) => message.id === 3);
    assert.equal(reply.result?.structuredContent?.wait_result, "exited");
    const between = wire.received.slice(wire.received.indexOf(started) + 1, -1);
    assert.deepEqual(between.map((message) => message.method), [], "nothing came between");
    await wire.until((message) => message.method === "notifications/message");
  } finally {
    await wire.close();
  }
});
