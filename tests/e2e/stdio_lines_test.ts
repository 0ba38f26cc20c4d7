import assert from "node:assert/strict";
import { serverCommand } from "./harness.ts";

const encoder = new TextEncoder();

/**
 * The stdio wire as a client that is not the SDK may drive it: lines that are not JSON-RPC are
 * skipped with a warning on stderr, a message split across writes is read whole, CRLF works, and
 * the server keeps answering.
 */
Deno.test("stdio: bad lines are skipped with a warning and the session goes on", async () => {
  const { command, args } = serverCommand();
  const child = new Deno.Command(command, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const nextMessage = async () => {
    while (!buffered.includes("\n")) {
      const { value, done } = await stdout.read();
      if (done) throw new Error("stdout ended");
      buffered += value;
    }
    const end = buffered.indexOf("\n");
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    return JSON.parse(line);
  };
  try {
    await writer.write(encoder.encode(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }) + "\r\n",
    ));
    assert.equal((await nextMessage()).id, 1);
    await writer.write(encoder.encode('not json\n{"jsonrpc":"1.0","id":2,"method":"ping"}\n'));
    // One request cut in three writes.
    for (const part of ['{"jsonrpc":"2.0",', '"id":3,"meth', 'od":"ping"}\n']) {
      await writer.write(encoder.encode(part));
    }
    assert.deepEqual(await nextMessage(), { result: {}, jsonrpc: "2.0", id: 3 });
  } finally {
    await writer.close();
    await stdout.cancel();
  }
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  assert.equal(status.code, 0);
  assert.match(stderr, /warning: Skipped a stdin line that is not JSON/);
  assert.match(
    stderr,
    /warning: Skipped a stdin line that is not a JSON-RPC message: jsonrpc must be "2.0"/,
  );
});

Deno.test("stdio: the wait that sees an exit is answered before the word about that exit", async () => {
  const { command, args } = serverCommand();
  const child = new Deno.Command(command, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const received: {
    id?: number;
    method?: string;
    result?: { structuredContent?: Record<string, unknown> };
  }[] = [];
  const send = (message: unknown) => writer.write(encoder.encode(`${JSON.stringify(message)}\n`));
  const until = async (found: (message: (typeof received)[number]) => boolean) => {
    while (true) {
      const end = buffered.indexOf("\n");
      if (end >= 0) {
        const message = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        received.push(message);
        if (found(message)) return message;
        continue;
      }
      const { value, done } = await stdout.read();
      if (done) throw new Error("stdout ended");
      buffered += value;
    }
  };
  const call = (id: number, name: string, args: Record<string, unknown>) =>
    send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
  try {
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    });
    await until((message) => message.id === 1);
    await call(2, "execute", { command: "sleep 0.3", side_effects: ["NONE"], yield_ms: 0 });
    const started = await until((message) => message.id === 2);
    const id = started.result?.structuredContent?.execution_id;
    await call(3, "wait", { execution_id: id, timeout_ms: 10_000 });
    const reply = await until((message) => message.id === 3);
    assert.equal(reply.result?.structuredContent?.wait_result, "exited");
    const before = received.slice(received.indexOf(started) + 1, -1);
    assert.deepEqual(before.map((message) => message.method), [], "nothing came between");
    await until((message) => message.method === "notifications/message");
  } finally {
    await writer.close();
    await stdout.cancel();
    await child.status;
  }
});
