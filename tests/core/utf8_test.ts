import assert from "node:assert/strict";
import {
  isContinuationByte,
  skipContinuationBytes,
  utf8CharLengthAt,
  Utf8Normalizer,
  utf8SafePrefixLength,
  utf8SequenceLength,
} from "../../src/core/utf8.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

Deno.test("isContinuationByte() recognises only 10xxxxxx", async (t) => {
  const cases: [number, boolean][] = [
    [0x00, false],
    [0x41, false],
    [0x7f, false],
    [0x80, true],
    [0xac, true],
    [0xbf, true],
    [0xc2, false],
    [0xe2, false],
    [0xf0, false],
    [0xff, false],
  ];
  for (const [byte, expected] of cases) {
    await t.step(`0x${byte.toString(16)}`, () => assert.equal(isContinuationByte(byte), expected));
  }
});

Deno.test("utf8SequenceLength() reads the lead byte", async (t) => {
  const cases: [number, number][] = [
    [0x41, 1],
    [0x80, 1],
    [0xc3, 2],
    [0xe2, 3],
    [0xf0, 4],
    [0xf8, 1],
    [0xff, 1],
  ];
  for (const [byte, expected] of cases) {
    await t.step(`0x${byte.toString(16)}`, () => assert.equal(utf8SequenceLength(byte), expected));
  }
});

Deno.test("utf8CharLengthAt() measures one whole character or one invalid byte", async (t) => {
  const cases: [string, number[], number, number][] = [
    ["ASCII", [...encode("ab")], 0, 1],
    ["two bytes", [...encode("é")], 0, 2],
    ["three bytes", [...encode("€x")], 0, 3],
    ["four bytes", [...encode("😀")], 0, 4],
    ["at an offset", [...encode("a€")], 1, 3],
    ["truncated sequence", [0xe2, 0x82], 0, 1],
    ["lead without continuation", [0xe2, 0x41, 0x41], 0, 1],
    ["orphan continuation", [0x82, 0xac], 0, 1],
    ["invalid byte", [0xff], 0, 1],
  ];
  for (const [name, bytes, offset, expected] of cases) {
    await t.step(name, () => {
      assert.equal(utf8CharLengthAt(new Uint8Array(bytes), offset), expected);
    });
  }
});

Deno.test("utf8SafePrefixLength() never ends inside a character", async (t) => {
  const aEuroB = encode("a€b"); // a | E2 82 AC | b
  const cases: [string, Uint8Array, number, number][] = [
    ["zero", aEuroB, 0, 0],
    ["before the character", aEuroB, 1, 1],
    ["one byte into it", aEuroB, 2, 1],
    ["two bytes into it", aEuroB, 3, 1],
    ["after it", aEuroB, 4, 4],
    ["everything", aEuroB, 5, 5],
    ["limit beyond the end", aEuroB, 99, 5],
    ["negative limit", aEuroB, -2, 0],
    ["only part of a character", encode("€"), 2, 0],
    ["four-byte character, cut", encode("😀"), 3, 0],
    ["four-byte character, whole", encode("😀"), 4, 4],
    ["two-byte character, cut", encode("xé"), 2, 1],
    ["orphan continuation bytes are kept", new Uint8Array([0x82, 0xac, 0x41]), 2, 2],
  ];
  for (const [name, bytes, limit, expected] of cases) {
    await t.step(name, () => assert.equal(utf8SafePrefixLength(bytes, limit), expected));
  }
});

Deno.test("skipContinuationBytes() moves to the next boundary, at most 3 bytes", async (t) => {
  const cases: [string, number[], number, number][] = [
    ["already on a boundary", [...encode("a€")], 1, 1],
    ["inside a character", [...encode("€a")], 1, 3],
    ["last byte of a character", [...encode("€a")], 2, 3],
    ["to the end", [...encode("€")], 1, 3],
    ["at the end", [...encode("a")], 1, 1],
    ["bounded at 3", [0x80, 0x80, 0x80, 0x80, 0x41], 0, 3],
  ];
  for (const [name, bytes, offset, expected] of cases) {
    await t.step(name, () => {
      assert.equal(skipContinuationBytes(new Uint8Array(bytes), offset), expected);
    });
  }
});

Deno.test("Utf8Normalizer holds a character split across chunks until it completes", async (t) => {
  await t.step("three-byte character, one byte per chunk", () => {
    const normalizer = new Utf8Normalizer();
    const [first, second, third] = encode("€");
    assert.deepEqual(normalizer.push(new Uint8Array([0x61, first])), encode("a"));
    assert.deepEqual(normalizer.push(new Uint8Array([second])), new Uint8Array());
    assert.deepEqual(normalizer.push(new Uint8Array([third, 0x62])), encode("€b"));
    assert.deepEqual(normalizer.flush(), new Uint8Array());
  });
  await t.step("four-byte character over two chunks", () => {
    const normalizer = new Utf8Normalizer();
    const bytes = encode("😀");
    assert.deepEqual(normalizer.push(bytes.subarray(0, 3)), new Uint8Array());
    assert.deepEqual(normalizer.push(bytes.subarray(3)), bytes);
  });
});

Deno.test("Utf8Normalizer replaces invalid bytes with U+FFFD", async (t) => {
  const cases: [string, number[], string][] = [
    ["invalid byte", [0x61, 0xff, 0x62], "a\uFFFDb"],
    ["orphan continuation", [0x80], "\uFFFD"],
    ["lead without continuation", [0xe2, 0x41], "\uFFFDA"],
    ["overlong encoding", [0xc0, 0xaf], "\uFFFD\uFFFD"],
  ];
  for (const [name, bytes, expected] of cases) {
    await t.step(name, () => {
      const normalizer = new Utf8Normalizer();
      const output = [...normalizer.push(new Uint8Array(bytes)), ...normalizer.flush()];
      assert.equal(decode(new Uint8Array(output)), expected);
      assert.deepEqual(new Uint8Array(output), encode(expected));
    });
  }
  await t.step("incomplete character at the end becomes U+FFFD on flush", () => {
    const normalizer = new Utf8Normalizer();
    assert.deepEqual(normalizer.push(new Uint8Array([0x61, 0xe2, 0x82])), encode("a"));
    assert.deepEqual(normalizer.flush(), encode("\uFFFD"));
  });
});

Deno.test("Utf8Normalizer keeps a leading byte order mark", () => {
  const normalizer = new Utf8Normalizer();
  const bytes = encode("\uFEFFhi");
  assert.equal(bytes.length, 5);
  assert.deepEqual(normalizer.push(bytes), bytes);
});

Deno.test("Utf8Normalizer can be reused after flush", () => {
  const normalizer = new Utf8Normalizer();
  normalizer.push(new Uint8Array([0xe2]));
  normalizer.flush();
  assert.deepEqual(normalizer.push(encode("ok")), encode("ok"));
});

Deno.test("an empty chunk between a split character and ASCII keeps the pending bytes", () => {
  const normalizer = new Utf8Normalizer();
  const out = [
    normalizer.push(Uint8Array.from([0xf0, 0x9f, 0x98])),
    normalizer.push(new Uint8Array()),
    normalizer.push(Uint8Array.from([0x61])),
    normalizer.flush(),
  ];
  assert.equal(new TextDecoder().decode(concat(out)), "\uFFFDa");
});

function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
