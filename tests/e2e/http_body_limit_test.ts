import assert from "node:assert/strict";
import { startHttpServer } from "./http_harness.ts";
import { type RawResponse, readResponse, requestHead, writeAll } from "./raw_http.ts";

const LIMIT = 4 * 1024 * 1024;
const HEAD = requestHead("POST", {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "Transfer-Encoding": "chunked",
});
const encoder = new TextEncoder();

/** How a chunked body ends after it has passed the limit. */
type Ending = "final chunk" | "half-close" | "garbage" | "cut mid-chunk" | "keeps sending";
const ENDINGS: Ending[] = [
  "final chunk",
  "half-close",
  "garbage",
  "cut mid-chunk",
  "keeps sending",
];

/** Chunk frames of `chunk` bytes (the last one shorter) carrying `total` bytes in all. */
function frames(total: number, chunk: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let sent = 0; sent < total; sent += chunk) {
    const size = Math.min(chunk, total - sent);
    parts.push(encoder.encode(`${size.toString(16)}\r\n${" ".repeat(size)}\r\n`));
  }
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

/** Sends a chunked body of `total` bytes ending as `ending`, and reads the answer. */
async function send(
  port: number,
  body: Uint8Array,
  ending: Ending,
): Promise<RawResponse | null> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const answer = readResponse(conn);
    let answered = false;
    answer.finally(() => answered = true).catch(() => {});
    // The server may stop reading at any point past the limit: write errors are expected.
    const writing = (async () => {
      await writeAll(conn, HEAD);
      await writeAll(conn, body);
      if (ending === "final chunk") await writeAll(conn, "0\r\n\r\n");
      if (ending === "garbage") await writeAll(conn, "zz\r\nnot a chunk\r\n");
      if (ending === "cut mid-chunk") await writeAll(conn, `1000\r\n${" ".repeat(10)}`);
      // Bounded: well before 16 MiB more the server must have answered.
      const more = frames(64 * 1024, 64 * 1024);
      for (let extra = 0; ending === "keeps sending" && !answered && extra < 256; extra++) {
        await writeAll(conn, more);
      }
      if (ending !== "keeps sending") await conn.closeWrite();
    })().catch(() => {});
    const response = await answer;
    await writing;
    return response;
  } finally {
    conn.close();
  }
}

Deno.test("http: a chunked body past 4 MiB always gets 413, however it is cut off", async (t) => {
  await using server = await startHttpServer();
  // Every chunk size, crossing the limit by one byte or by a few KiB, every ending: the
  // cases a client can produce, each run in turn (no randomness, no timing).
  for (const chunk of [100, 4096, 65_536, 1024 * 1024, LIMIT + 8192]) {
    for (const total of [LIMIT + 1, LIMIT + 4097]) {
      const body = frames(total, chunk);
      for (const ending of ENDINGS) {
        const name = `${chunk}-byte chunks, ${total - LIMIT} byte(s) past the limit, ${ending}`;
        await t.step(name, async () => {
          const response = await send(server.port, body, ending);
          assert.ok(response !== null, "an answer arrives");
          assert.equal(response.status, 413, response.text.slice(0, 400));
          const { error } = JSON.parse(response.body);
          assert.match(error.message, /^Payload too large: request bodies are limited to 4194304/);
          assert.doesNotMatch(response.text, /Error|stack|\n\s+at /);
        });
      }
    }
  }
  await t.step("a chunked body of exactly 4 MiB is read in full", async () => {
    const message = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }).padEnd(LIMIT, " ");
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
    try {
      await writeAll(conn, HEAD);
      for (let at = 0; at < LIMIT; at += 65_536) {
        const piece = message.slice(at, at + 65_536);
        await writeAll(conn, `${piece.length.toString(16)}\r\n${piece}\r\n`);
      }
      await writeAll(conn, "0\r\n\r\n");
      const response = await readResponse(conn);
      // Parsed, then refused for want of a session: the size was accepted.
      assert.equal(response?.status, 400, response?.text);
      assert.match(
        JSON.parse(response?.body ?? "").error.message,
        /Mcp-Session-Id header is required/,
      );
    } finally {
      conn.close();
    }
  });
  assert.doesNotMatch(server.stderr(), /HTTP request failed/);
});

Deno.test("http: a chunked body cut off before the limit gets 400, never 500", async (t) => {
  await using server = await startHttpServer();
  const cases: [string, string][] = [
    ["no final chunk", '10\r\n{"jsonrpc":"2.0",\r\n'],
    ["cut mid-chunk", '100\r\n{"jsonrpc":'],
    ["a size that is not hex", "zz\r\n{}\r\n0\r\n\r\n"],
    ["no CRLF after the data", "2\r\n{}XX0\r\n\r\n"],
  ];
  for (const [name, body] of cases) {
    await t.step(name, async () => {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
      try {
        await writeAll(conn, HEAD + body);
        await conn.closeWrite();
        const response = await readResponse(conn);
        assert.ok(response !== null);
        assert.equal(response.status, 400, response.text);
        assert.match(
          JSON.parse(response.body).error.message,
          /^Bad request: the request body could not be read to its end \(.+\); send the whole body/,
        );
      } finally {
        conn.close();
      }
    });
  }
  assert.doesNotMatch(server.stderr(), /HTTP request failed/);
});
