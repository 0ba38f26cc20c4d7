import assert from "node:assert/strict";
import { startHttpServer } from "./http_harness.ts";
import { readResponse, requestHead, writeAll } from "./raw_http.ts";

const JSON_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};
const TIMEOUT_MS = 2_000;

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
});

Deno.test("http: slow request heads and bodies get 408 and give their request slots back", async () => {
  // Two slots: the two slow uploads would otherwise hold both of them for ever.
  await using server = await startHttpServer({
    args: ["--max-concurrent-requests", "2", "--request-read-timeout-ms", String(TIMEOUT_MS)],
  });
  const connect = () => Deno.connect({ hostname: "127.0.0.1", port: server.port });
  const slow: { what: string; conn: Deno.Conn; message: RegExp }[] = [];
  const body = /^Request timeout: the request body did not arrive within 2000 ms/;
  const head = /^Request timeout: the request headers did not arrive within 2000 ms/;
  let trickle: ReturnType<typeof setInterval> | undefined;
  try {
    const stalled = await connect();
    await writeAll(stalled, requestHead("POST", { ...JSON_HEADERS, "Content-Length": "1000" }));
    await writeAll(stalled, '{"jsonrpc":"2.0",');
    slow.push({ what: "stalled body", conn: stalled, message: body });
    // A body that keeps arriving, a byte at a time, is held to the same deadline.
    const trickling = await connect();
    await writeAll(trickling, requestHead("POST", { ...JSON_HEADERS, "Content-Length": "100000" }));
    trickle = setInterval(() => trickling.write(new Uint8Array([0x20])).catch(() => {}), 100);
    slow.push({ what: "trickling body", conn: trickling, message: body });
    for (const what of ["stalled head 1", "stalled head 2", "stalled head 3"]) {
      const conn = await connect();
      await writeAll(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      slow.push({ what, conn, message: head });
    }
    slow.push({ what: "silent connection", conn: await connect(), message: head });

    for (const { what, conn, message } of slow) {
      const response = await readResponse(conn);
      assert.ok(response !== null, `${what}: an answer before the connection closes`);
      assert.equal(response.status, 408, `${what}: ${response.text}`);
      assert.equal(response.headers.get("connection"), "close", what);
      assert.match(JSON.parse(response.body).error.message, message, what);
    }
    const fresh = await fetch(server.url, {
      method: "POST",
      headers: JSON_HEADERS,
      body: initialize,
    });
    await fresh.body?.cancel();
    assert.equal(fresh.status, 200, "the slots are free again");
  } finally {
    clearInterval(trickle);
    for (const { conn } of slow) {
      try {
        conn.close();
      } catch { /* closed by the server */ }
    }
  }
});

Deno.test("http: the read timeout is a setting with a bounded range", async () => {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=server", "main.ts", "--request-read-timeout-ms", "3000000000"],
    cwd: new URL("../../", import.meta.url),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 2);
  assert.match(
    new TextDecoder().decode(stderr),
    /Invalid --request-read-timeout-ms: received "3000000000"; expected an integer from 1 to 86400000/,
  );
});
