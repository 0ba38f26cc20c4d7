import assert from "node:assert/strict";
import { connectHttp, MCP_ACCEPT, postJson, startHttpServer } from "./http_harness.ts";
import { posix } from "../os.ts";

const NONE = ["NONE"];
const PROTOCOL_VERSION = "2025-06-18";
const JSON_HEADERS = { "Content-Type": "application/json", Accept: MCP_ACCEPT };

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

posix.test("http: each entry of a JSON-RPC batch counts against the request limit", async () => {
  await using server = await startHttpServer({
    args: ["--max-concurrent-requests", "2", "--keepalive-interval-ms", "100"],
  });
  await using s = await connectHttp(server.url);
  const session = { "Mcp-Session-Id": s.sessionId, "Mcp-Protocol-Version": PROTOCOL_VERSION };

  const pair = await postJson(server.url, [ping(1), ping(2)], session);
  assert.equal(pair.status, 200, pair.text);
  assert.equal((pair.text.match(/"result"/g) ?? []).length, 2, pair.text);

  const three = await postJson(server.url, [ping(3), ping(4), ping(5)], session);
  assert.equal(three.status, 413, three.text);
  assert.match(
    JSON.parse(three.text).error.message,
    /^Payload too large: this batch carries 3 requests and the server handles at most 2 at once/,
  );

  // One request in flight leaves room for one more, not for a batch of two.
  const started = Promise.withResolvers<void>();
  const blocking = s.client.callTool(
    { name: "execute", arguments: { command: "sleep 30", side_effects: NONE, yield_ms: 30_000 } },
    undefined,
    { onprogress: () => started.resolve(), signal: AbortSignal.timeout(60_000) },
  );
  try {
    await started.promise;
    const busy = await postJson(server.url, [ping(6), ping(7)], session);
    assert.equal(busy.status, 503, busy.text);
    assert.match(JSON.parse(busy.text).error.message, /^Server busy: 2 requests are already/);
    const single = await postJson(server.url, ping(8), session);
    assert.equal(single.status, 200, "a single request still fits");
  } finally {
    const { execution_id } = JSON.parse(
      JSON.stringify((await s.client.callTool({ name: "ps", arguments: {} })).structuredContent),
    ).executions[0];
    await s.client.callTool({ name: "stop", arguments: { execution_id } });
    await blocking.catch(() => {});
  }
});

posix.test("http: cancelling one entry of a batch still answers the rest", async (t) => {
  await using server = await startHttpServer({ args: ["--keepalive-interval-ms", "100"] });
  await using s = await connectHttp(server.url);
  const session = { "Mcp-Session-Id": s.sessionId, "Mcp-Protocol-Version": PROTOCOL_VERSION };
  const call = (id: string, name: string, args: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, _meta: { progressToken: id } },
  });
  const sleeper = call("slow", "execute", {
    command: "sleep 30",
    side_effects: NONE,
    yield_ms: 30_000,
  });
  const cancel = (id: string) =>
    postJson(server.url, {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason: "test" },
    }, session);
  /** Posts a batch and reads its event stream until `until` holds for the text so far. */
  const open = async (batch: unknown[]) => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: { ...JSON_HEADERS, ...session },
      body: JSON.stringify(batch),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    // Gives up (and the assertions after it fail) if the server never ends the stream.
    const timer = setTimeout(() => reader.cancel(), 30_000);
    return {
      async until(done: (text: string) => boolean) {
        while (!done(text)) {
          const chunk = await reader.read();
          if (chunk.done) {
            clearTimeout(timer);
            return text;
          }
          text += chunk.value;
        }
        return text;
      },
    };
  };
  const progressOf = (id: string) => (text: string) => text.includes(`"progressToken":"${id}"`);

  await t.step("the other entry still running: the cancelled one gets an error", async () => {
    const cat = await s.client.callTool({
      name: "execute",
      arguments: { command: "cat", side_effects: NONE, yield_ms: 0, close_stdin: false },
    });
    const { execution_id } = cat.structuredContent as { execution_id: string };
    const stream = await open([
      sleeper,
      call("waiting", "wait", { execution_id, timeout_ms: 30_000 }),
    ]);
    await stream.until((text) => progressOf("slow")(text) && progressOf("waiting")(text));
    assert.equal((await cancel("slow")).status, 202);
    await stream.until((text) => text.includes('"id":"slow"'));
    await s.client.callTool({
      name: "write",
      arguments: { execution_id, input: "done", newline: true, close_stdin: true },
    });
    const text = await stream.until(() => false);
    assert.match(text, /"id":"slow","error":\{"code":-32000,"message":"Request cancelled: /);
    assert.match(text, /"id":"waiting"/, "the wait is answered after the cancellation");
    assert.match(text, /done\\n/);
  });

  await t.step("every other entry answered: cancelling the last one ends the stream", async () => {
    const stream = await open([sleeper, ping(2)]);
    await stream.until((text) => text.includes('"id":2') && progressOf("slow")(text));
    assert.equal((await cancel("slow")).status, 202);
    const text = await stream.until(() => false);
    assert.doesNotMatch(text, /"id":"slow"/, "no answer to a cancelled request");
  });
});
