import assert from "node:assert/strict";
import type { JsonRpcMessage } from "../../src/protocol/json_rpc.ts";
import { StdioTransport } from "../../src/transports/stdio_transport.ts";

/** Input fed from a list of chunks, then EOF; output collected. */
function streams(chunks: string[]) {
  const encoder = new TextEncoder();
  const pending = chunks.map((chunk) => encoder.encode(chunk));
  const written: Uint8Array[] = [];
  return {
    written,
    input: {
      read(buffer: Uint8Array): Promise<number | null> {
        const next = pending.shift();
        if (next === undefined) return Promise.resolve(null);
        buffer.set(next);
        return Promise.resolve(next.length);
      },
    },
    output: {
      // Two bytes at a time: the transport must finish every partial write.
      write(bytes: Uint8Array): Promise<number> {
        const count = Math.min(2, bytes.length);
        written.push(bytes.slice(0, count));
        return Promise.resolve(count);
      },
    },
  };
}

Deno.test("messages in, errors for lines that are not messages, close at EOF, whole lines out", async () => {
  const io = streams([
    '{"jsonrpc":"2.0","id":1,"method":"ping"}\nnot json\n{"id":2}\n',
    '[1]\n\n{"jsonrpc":"2.0","method":"notifications/initialized"}\r\n',
  ]);
  const transport = new StdioTransport(io);
  const received: JsonRpcMessage[] = [];
  const errors: string[] = [];
  const closed = Promise.withResolvers<void>();
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error.message);
  transport.onclose = () => closed.resolve();
  await transport.start();
  await closed.promise;
  assert.deepEqual(received, [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ]);
  assert.equal(errors.length, 3);
  assert.match(errors[0], /not JSON/);
  assert.match(errors[1], /not a JSON-RPC message: jsonrpc must be "2.0"/);
  assert.match(errors[2], /not a JSON-RPC message: a JSON-RPC message is a JSON object/);

  const out = new StdioTransport(io);
  await Promise.all([
    out.send({ result: { a: "é" }, jsonrpc: "2.0", id: 1 }),
    out.send({ jsonrpc: "2.0", method: "notifications/message" }),
  ]);
  const text = new TextDecoder().decode(new Uint8Array(io.written.flatMap((part) => [...part])));
  assert.equal(
    text,
    '{"result":{"a":"é"},"jsonrpc":"2.0","id":1}\n{"jsonrpc":"2.0","method":"notifications/message"}\n',
  );
});
