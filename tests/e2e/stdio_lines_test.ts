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
