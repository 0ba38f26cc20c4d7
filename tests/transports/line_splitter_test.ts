import assert from "node:assert/strict";
import fc from "fast-check";
import { LineSplitter } from "../../src/transports/line_splitter.ts";
import { testSeed } from "../seed.ts";

const encoder = new TextEncoder();

function split(chunks: Uint8Array[], maxLineBytes = 1024) {
  const splitter = new LineSplitter(maxLineBytes);
  const lines: string[] = [];
  let tooLong = 0;
  for (const chunk of chunks) splitter.push(chunk, (line) => lines.push(line), () => tooLong++);
  return { lines, tooLong };
}

Deno.test("lines come out whole and decoded wherever the chunks are cut", () => {
  const seed = testSeed("line splitter", 18_001);
  const line = fc.string({ unit: "grapheme", maxLength: 40 }).map((text) =>
    text.replace(/[\r\n]/g, " ")
  );
  fc.assert(
    fc.property(
      fc.array(line, { maxLength: 8 }),
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 10 }),
      (lines, crlf, cuts) => {
        const bytes = encoder.encode(lines.map((text) => `${text}${crlf ? "\r" : ""}\n`).join(""));
        const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) =>
          a - b
        );
        const chunks: Uint8Array[] = [];
        let start = 0;
        for (const point of [...points, bytes.length]) {
          chunks.push(bytes.slice(start, point));
          start = point;
        }
        const got = split(chunks, 1 << 20);
        assert.deepEqual(
          got.lines,
          lines.map((text) => text.endsWith("\r") ? text.slice(0, -1) : text),
        );
        assert.equal(got.tooLong, 0);
      },
    ),
    { seed, numRuns: 300 },
  );
});

Deno.test("a line over the limit is skipped once, in one chunk or many, and the next is read", () => {
  const long = "x".repeat(50);
  const whole = split([encoder.encode(`${long}\nok\n`)], 20);
  assert.deepEqual(whole, { lines: ["ok"], tooLong: 1 });
  const pieces = split([...`${long}\nok\n`].map((char) => encoder.encode(char)), 20);
  assert.deepEqual(pieces, { lines: ["ok"], tooLong: 1 });
});

Deno.test("the reused read buffer does not change a line kept across chunks", () => {
  const splitter = new LineSplitter(1024);
  const lines: string[] = [];
  const buffer = encoder.encode("abc");
  splitter.push(buffer, (line) => lines.push(line), () => {});
  buffer.set(encoder.encode("zzz"));
  splitter.push(encoder.encode("d\n"), (line) => lines.push(line), () => {});
  assert.deepEqual(lines, ["abcd"]);
});
