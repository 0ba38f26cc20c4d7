import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { EmptyResultSchema, type McpError } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, RpcError } from "../../src/protocol/json_rpc.ts";
import { ProtocolServer, SUPPORTED_PROTOCOL_VERSIONS } from "../../src/protocol/protocol_server.ts";

async function connect(server: ProtocolServer) {
  const client = new Client({ name: "test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

Deno.test("initialize reports the server, its capabilities and instructions; ping answers", async () => {
  const server = new ProtocolServer({ name: "s", version: "9" }, { instructions: "hi" });
  server.registerCapabilities({ tools: { listChanged: true } });
  server.registerCapabilities({ tools: { listChanged: false }, logging: {} });
  const client = await connect(server);
  try {
    assert.deepEqual(client.getServerVersion(), { name: "s", version: "9" });
    assert.deepEqual(client.getServerCapabilities(), {
      tools: { listChanged: false },
      logging: {},
    });
    assert.equal(client.getInstructions(), "hi");
    assert.deepEqual(server.getClientCapabilities(), {});
    assert.deepEqual(await client.ping(), {});
  } finally {
    await client.close();
  }
});

Deno.test("an unknown method, an RpcError and a thrown Error each get their JSON-RPC error", async () => {
  const server = new ProtocolServer({ name: "s", version: "1" });
  server.setRequestHandler("x/rpc", () => {
    throw new RpcError(-32002, "Gone: list them first", { uri: "u" });
  });
  server.setRequestHandler("x/bug", () => Promise.reject(new Error("broken")));
  const client = await connect(server);
  const request = (method: string) => client.request({ method }, EmptyResultSchema);
  try {
    await assert.rejects(
      request("x/none"),
      (error: McpError) => error.code === ErrorCode.MethodNotFound,
    );
    await assert.rejects(
      request("x/rpc"),
      (error: McpError) =>
        error.code === -32002 && error.message === "MCP error -32002: Gone: list them first" &&
        (error.data as { uri: string }).uri === "u",
    );
    await assert.rejects(
      request("x/bug"),
      (error: McpError) => error.code === ErrorCode.InternalError && /broken/.test(error.message),
    );
  } finally {
    await client.close();
  }
});

Deno.test("a cancelled request's handler sees the abort and no answer is sent", async () => {
  const server = new ProtocolServer({ name: "s", version: "1" });
  const aborted = Promise.withResolvers<unknown>();
  server.setRequestHandler("x/slow", (_params, extra) =>
    new Promise((resolve) => {
      extra.signal.addEventListener("abort", () => {
        aborted.resolve(extra.signal.reason);
        resolve({});
      });
    }));
  const client = await connect(server);
  const sent: unknown[] = [];
  // An answer to the cancelled id would reach the client as a response to an unknown request.
  const errors: Error[] = [];
  client.onerror = (error: Error) => errors.push(error);
  try {
    const controller = new AbortController();
    const call = client.request({ method: "x/slow" }, EmptyResultSchema, {
      signal: controller.signal,
    });
    controller.abort("user hit stop");
    await assert.rejects(call);
    assert.equal(await aborted.promise, "user hit stop");
    // A ping after it is answered, and nothing about the cancelled request arrived before it.
    client.fallbackNotificationHandler = (notification: unknown) => {
      sent.push(notification);
      return Promise.resolve();
    };
    assert.deepEqual(await client.ping(), {});
    assert.deepEqual(sent, []);
    assert.deepEqual(errors, []);
  } finally {
    await client.close();
  }
});

Deno.test("an unknown protocol revision is answered with the newest one", async () => {
  const server = new ProtocolServer({ name: "s", version: "1" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const answered = Promise.withResolvers<unknown>();
  clientSide.onmessage = (message: unknown) => answered.resolve(message);
  await clientSide.start();
  await clientSide.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "1999-01-01",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    },
  });
  const reply = await answered.promise as { result: { protocolVersion: string } };
  assert.equal(reply.result.protocolVersion, SUPPORTED_PROTOCOL_VERSIONS[0]);
  await clientSide.close();
});

Deno.test("closing the connection aborts in-flight handlers and calls onclose", async () => {
  const server = new ProtocolServer({ name: "s", version: "1" });
  const started = Promise.withResolvers<AbortSignal>();
  server.setRequestHandler("x/hang", (_params, extra) => {
    started.resolve(extra.signal);
    return new Promise(() => {});
  });
  let closes = 0;
  server.onclose = () => closes++;
  const client = await connect(server);
  client.request({ method: "x/hang" }, EmptyResultSchema).catch(() => {});
  const signal = await started.promise;
  await client.close();
  assert.equal(signal.aborted, true);
  assert.equal(closes, 1);
  assert.equal(server.isConnected(), false);
});
