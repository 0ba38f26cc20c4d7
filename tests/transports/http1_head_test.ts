import assert from "node:assert/strict";
import { parseRequestHead, type RequestHead } from "../../src/transports/http1_head.ts";

function head(text: string): RequestHead {
  const parsed = parseRequestHead(text);
  assert.ok(!("status" in parsed), JSON.stringify(parsed));
  return parsed;
}

function refusal(text: string): { status: number; message: string } {
  const parsed = parseRequestHead(text);
  assert.ok("status" in parsed, `accepted: ${JSON.stringify(text)}`);
  return parsed;
}

Deno.test("parseRequestHead reads method, path, headers and framing", async (t) => {
  await t.step("a chunked POST", () => {
    const parsed = head(
      "POST /mcp?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nTransfer-Encoding: Chunked\r\nX-A:  b c \t",
    );
    assert.equal(parsed.method, "POST");
    assert.equal(parsed.target, "/mcp?x=1");
    assert.equal(parsed.minorVersion, 1);
    assert.deepEqual(parsed.headers, [
      ["Host", "127.0.0.1:8000"],
      ["Transfer-Encoding", "Chunked"],
      ["X-A", "b c"],
    ]);
    assert.deepEqual(parsed.framing, { kind: "chunked" });
    assert.equal(parsed.keepAlive, true);
    assert.equal(parsed.expectsContinue, false);
  });
  await t.step("lengths, repeated equal lengths and zero", () => {
    const length = (value: string) =>
      head(`POST / HTTP/1.1\r\nHost: h\r\nContent-Length: ${value}`).framing;
    assert.deepEqual(length("12"), { kind: "length", bytes: 12 });
    assert.deepEqual(length("12, 12"), { kind: "length", bytes: 12 });
    assert.deepEqual(length("0"), { kind: "none" });
    assert.deepEqual(head("GET / HTTP/1.1\r\nHost: h").framing, { kind: "none" });
  });
  await t.step("connection persistence and 100-continue", () => {
    assert.equal(head("GET / HTTP/1.1\r\nHost: h\r\nConnection: Close").keepAlive, false);
    assert.equal(head("GET / HTTP/1.0").keepAlive, false);
    assert.equal(head("GET / HTTP/1.0\r\nConnection: keep-alive").keepAlive, true);
    assert.equal(head("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue").expectsContinue, true);
  });
  await t.step("an absolute-form target becomes its path", () => {
    assert.equal(head("GET http://127.0.0.1:8000/mcp?a HTTP/1.1\r\nHost: h").target, "/mcp?a");
  });
});

Deno.test("parseRequestHead refuses heads two servers could read two ways", async (t) => {
  const cases: [string, string, number, RegExp][] = [
    [
      "both framings",
      "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked",
      400,
      /not both/,
    ],
    [
      "two lengths",
      "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4",
      400,
      /not one byte count/,
    ],
    [
      "a signed length",
      "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3",
      400,
      /not one byte count/,
    ],
    [
      "another coding",
      "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked",
      501,
      /^Not implemented: /,
    ],
    [
      "a folded line",
      "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b",
      400,
      /header line " b" is malformed/,
    ],
    ["space before the colon", "GET / HTTP/1.1\r\nHost : h", 400, /malformed/],
    ["a bare LF", "GET / HTTP/1.1\nHost: h", 400, /request line/],
    ["no Host", "GET / HTTP/1.1\r\nX: y", 400, /exactly one Host/],
    ["two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b", 400, /exactly one Host/],
    ["HTTP/2 preface", "PRI * HTTP/2.0", 505, /use HTTP\/1\.1/],
    ["a target that is not a path", "GET mcp HTTP/1.1\r\nHost: h", 400, /is not a path/],
    ["NUL in a value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\0b", 400, /malformed/],
  ];
  for (const [name, text, status, message] of cases) {
    await t.step(name, () => {
      const refused = refusal(text);
      assert.equal(refused.status, status);
      assert.match(refused.message, message);
    });
  }
});
