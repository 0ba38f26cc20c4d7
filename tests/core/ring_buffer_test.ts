import assert from "node:assert/strict";
import { type Chunk, RingBuffer } from "../../src/core/ring_buffer.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Chunks as [startSeq, text] pairs, for readable assertions. */
function show(chunks: Iterable<Chunk>): [number, string][] {
  return [...chunks].map(({ startSeq, bytes }) => [startSeq, decode(bytes)]);
}

/** Appends texts back to back from position 1, as one stream alone would. */
function filled(capacityBytes: number, ...texts: string[]): RingBuffer {
  const buffer = new RingBuffer({ capacityBytes });
  let seq = 1;
  for (const text of texts) {
    const bytes = encode(text);
    buffer.append(seq, bytes);
    seq += bytes.length;
  }
  return buffer;
}

Deno.test("RingBuffer rejects an invalid capacity", async (t) => {
  for (const capacityBytes of [-1, 1.5, NaN, Infinity]) {
    await t.step(String(capacityBytes), () => {
      assert.throws(() => new RingBuffer({ capacityBytes }), {
        name: "RangeError",
        message: /capacityBytes must be a non-negative integer/,
      });
    });
  }
});

Deno.test("RingBuffer retains appends within capacity", () => {
  const buffer = filled(10, "abc", "de");
  assert.equal(buffer.capacityBytes, 10);
  assert.equal(buffer.retainedBytes, 5);
  assert.equal(buffer.bytesCaptured, 5);
  assert.equal(buffer.watermark, null);
  assert.equal(buffer.firstSeq, 1);
  assert.deepEqual(show(buffer.chunksFrom(1)), [[1, "abc"], [4, "de"]]);
});

Deno.test("RingBuffer starts empty and ignores empty appends", () => {
  const buffer = new RingBuffer({ capacityBytes: 4 });
  assert.equal(buffer.firstSeq, null);
  buffer.append(1, new Uint8Array());
  assert.equal(buffer.firstSeq, null);
  assert.equal(buffer.bytesCaptured, 0);
  assert.deepEqual(show(buffer.chunksFrom(1)), []);
  assert.deepEqual(show(buffer.chunksNewestFirst()), []);
});

Deno.test("RingBuffer refuses positions that go backwards and accepts gaps", () => {
  const buffer = new RingBuffer({ capacityBytes: 10 });
  buffer.append(1, encode("abc"));
  assert.throws(() => buffer.append(3, encode("x")), {
    name: "RangeError",
    message: "Cannot append at position 3 as positions must increase: append at 4 or later",
  });
  buffer.append(7, encode("ghi"));
  assert.deepEqual(show(buffer.chunksFrom(1)), [[1, "abc"], [7, "ghi"]]);
});

Deno.test("RingBuffer evicts whole chunks from the front", () => {
  const buffer = filled(6, "abc", "def", "ghi");
  assert.deepEqual(show(buffer.chunksFrom(1)), [[4, "def"], [7, "ghi"]]);
  assert.equal(buffer.watermark, 4);
  assert.equal(buffer.firstSeq, 4);
  assert.equal(buffer.retainedBytes, 6);
  assert.equal(buffer.bytesCaptured, 9);
});

Deno.test("RingBuffer trims the oldest chunk when only part of it must go", () => {
  const buffer = filled(10, "0123456789", "ABC");
  assert.deepEqual(show(buffer.chunksFrom(1)), [[4, "3456789"], [11, "ABC"]]);
  assert.equal(buffer.watermark, 4);
  assert.equal(buffer.retainedBytes, 10);
});

Deno.test("RingBuffer partial eviction moves past continuation bytes", () => {
  // "€a" is E2 82 AC 61: cutting 2 bytes lands inside €, so all of € goes.
  const buffer = filled(4, "€a", "bc");
  assert.deepEqual(show(buffer.chunksFrom(1)), [[4, "a"], [5, "bc"]]);
  assert.equal(buffer.watermark, 4);
  assert.equal(buffer.retainedBytes, 3);
});

Deno.test("RingBuffer with capacity 2 evicts a 3-byte character entirely", () => {
  const buffer = filled(2, "€");
  assert.deepEqual(show(buffer.chunksFrom(1)), []);
  assert.equal(buffer.watermark, 4);
  assert.equal(buffer.firstSeq, null);
  assert.equal(buffer.retainedBytes, 0);
  assert.equal(buffer.bytesCaptured, 3);
});

Deno.test("RingBuffer with capacity 0 retains nothing", () => {
  const buffer = filled(0, "ab", "c");
  assert.deepEqual(show(buffer.chunksFrom(1)), []);
  assert.equal(buffer.watermark, 4);
  assert.equal(buffer.bytesCaptured, 3);
});

Deno.test("RingBuffer keeps only the last capacity bytes of an oversized append", async (t) => {
  await t.step("ASCII, older chunks all evicted", () => {
    const buffer = filled(4, "x", "0123456789");
    assert.deepEqual(show(buffer.chunksFrom(1)), [[8, "6789"]]);
    assert.equal(buffer.watermark, 8);
    assert.equal(buffer.bytesCaptured, 11);
  });
  await t.step("cut adjusted to a character boundary", () => {
    // Keeping 4 of 9 bytes would start inside the second €.
    const buffer = filled(4, "€€€");
    assert.deepEqual(show(buffer.chunksFrom(1)), [[7, "€"]]);
    assert.equal(buffer.watermark, 7);
    assert.equal(buffer.retainedBytes, 3);
  });
  await t.step("the kept bytes do not pin the oversized append", () => {
    const bytes = encode("0123456789");
    const buffer = new RingBuffer({ capacityBytes: 2 });
    buffer.append(1, bytes);
    const [chunk] = buffer.chunksFrom(1);
    assert.equal(decode(chunk.bytes), "89");
    assert.notEqual(chunk.bytes.buffer, bytes.buffer);
  });
});

Deno.test("RingBuffer partial eviction keeps a view instead of copying", () => {
  const bytes = encode("0123456789");
  const buffer = new RingBuffer({ capacityBytes: 10 });
  buffer.append(1, bytes);
  buffer.append(11, encode("AB"));
  const [chunk] = buffer.chunksFrom(1);
  assert.equal(decode(chunk.bytes), "23456789");
  assert.equal(chunk.bytes.buffer, bytes.buffer);
});

Deno.test("RingBuffer watermark only rises", () => {
  const buffer = new RingBuffer({ capacityBytes: 3 });
  const watermarks: (number | null)[] = [];
  let seq = 1;
  for (const text of ["ab", "cd", "e", "fghij", "k"]) {
    buffer.append(seq, encode(text));
    seq += text.length;
    watermarks.push(buffer.watermark);
  }
  assert.deepEqual(watermarks, [null, 2, 3, 8, 9]);
});

Deno.test("RingBuffer.chunksFrom() finds the chunk holding a position", async (t) => {
  // Chunks at 1-3 and 7-9 leave a gap, as the other stream would.
  const buffer = new RingBuffer({ capacityBytes: 100 });
  buffer.append(1, encode("abc"));
  buffer.append(7, encode("ghi"));
  buffer.append(10, encode("jk"));
  const cases: [number, [number, string][]][] = [
    [-5, [[1, "abc"], [7, "ghi"], [10, "jk"]]],
    [1, [[1, "abc"], [7, "ghi"], [10, "jk"]]],
    [2, [[2, "bc"], [7, "ghi"], [10, "jk"]]],
    [3, [[3, "c"], [7, "ghi"], [10, "jk"]]],
    [4, [[7, "ghi"], [10, "jk"]]],
    [6, [[7, "ghi"], [10, "jk"]]],
    [7, [[7, "ghi"], [10, "jk"]]],
    [9, [[9, "i"], [10, "jk"]]],
    [10, [[10, "jk"]]],
    [11, [[11, "k"]]],
    [12, []],
    [99, []],
  ];
  for (const [seq, expected] of cases) {
    await t.step(`from ${seq}`, () => assert.deepEqual(show(buffer.chunksFrom(seq)), expected));
  }
});

Deno.test("RingBuffer.chunksFrom() includes a chunk that starts exactly at the cursor", () => {
  const buffer = filled(100, "ab", "cd", "ef");
  assert.deepEqual(show(buffer.chunksFrom(3)), [[3, "cd"], [5, "ef"]]);
  assert.deepEqual(show(buffer.chunksFrom(5)), [[5, "ef"]]);
});

Deno.test("RingBuffer.chunksFrom() skips evicted positions", () => {
  const buffer = filled(4, "abc", "def");
  assert.deepEqual(show(buffer.chunksFrom(1)), [[3, "c"], [4, "def"]]);
  assert.deepEqual(show(buffer.chunksFrom(3)), [[3, "c"], [4, "def"]]);
});

Deno.test("RingBuffer.chunksNewestFirst() walks backwards", () => {
  const buffer = filled(5, "ab", "cd", "ef");
  assert.deepEqual(show(buffer.chunksNewestFirst()), [[5, "ef"], [3, "cd"], [2, "b"]]);
});

Deno.test("RingBuffer stays consistent over many evictions and compactions", () => {
  const capacityBytes = 50;
  const buffer = new RingBuffer({ capacityBytes });
  const all: string[] = [];
  let seq = 1;
  for (let index = 0; index < 5000; index++) {
    const text = String.fromCharCode(97 + (index % 26)).repeat(1 + (index % 3));
    buffer.append(seq, encode(text));
    for (const char of text) all.push(char);
    seq += text.length;
    // Sample the invariants rather than scanning every step.
    if (index % 97 !== 0) continue;
    const firstSeq = buffer.firstSeq ?? seq;
    assert.equal(buffer.retainedBytes, seq - firstSeq);
    assert.ok(buffer.retainedBytes <= capacityBytes);
    assert.equal(buffer.watermark ?? 1, firstSeq);
    for (let from = firstSeq - 2; from <= seq; from++) {
      const text = show(buffer.chunksFrom(from)).map(([, part]) => part).join("");
      assert.equal(text, all.slice(Math.max(from, firstSeq) - 1).join(""));
    }
  }
  const newest = show(buffer.chunksNewestFirst()).reverse().map(([, part]) => part).join("");
  assert.equal(newest, all.slice(-buffer.retainedBytes).join(""));
});
