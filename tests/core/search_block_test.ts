import assert from "node:assert/strict";
import { type BlockQuery, matchBlock } from "../../src/core/search_block.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function query(text: string, searched: string, options: Partial<BlockQuery> = {}): BlockQuery {
  return {
    source: "err",
    flags: "gm",
    bytes: encode(text),
    searchedBytes: encode(searched).length,
    maxMatches: 10,
    contextLines: 1,
    leading: [],
    maxLineChars: 500,
    ...options,
  };
}

Deno.test("matchBlock: context comes from the previous block and the lookahead", () => {
  const text = "err 1\nok\nerr é3\nnext\n";
  const result = matchBlock(query(text, "err 1\nok\nerr é3\n", { leading: ["before"] }));
  assert.deepEqual(result.matches, [
    { lineByte: 0, matchByte: 0, text: "err 1", before: ["before"], after: ["ok"] },
    { lineByte: 9, matchByte: 9, text: "err é3", before: ["ok"], after: ["next"] },
  ]);
  assert.deepEqual(result.trailing, ["err é3"]);
  assert.equal(result.next, null);
});

Deno.test("matchBlock: one result per line, byte offsets after multi-byte text, max matches", () => {
  const text = "中err err\n😀 err\nerr\n";
  const result = matchBlock(query(text, text, { maxMatches: 2, contextLines: 0 }));
  assert.deepEqual(result.matches.map((m) => [m.lineByte, m.matchByte, m.text]), [
    [0, 3, "中err err"],
    [11, 16, "😀 err"],
  ]);
  assert.deepEqual(result.next, { lineByte: 20 });
});

Deno.test("matchBlock: a match in the lookahead is left to the next block", () => {
  const result = matchBlock(query("ok\nerr\n", "ok\n"));
  assert.deepEqual(result.matches, []);
  assert.deepEqual(result.trailing, ["ok"]);
});

Deno.test("matchBlock: a long line is cut around its match, never inside a surrogate pair", () => {
  const line = "😀".repeat(300) + "err" + "😀".repeat(300);
  const [match] = matchBlock(query(line, line, { maxLineChars: 101 })).matches;
  assert.ok(match.text.startsWith("…") && match.text.endsWith("…"));
  assert.ok(match.text.includes("err"));
  assert.ok(
    !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(match.text),
  );
});
