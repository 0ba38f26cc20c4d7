import assert from "node:assert/strict";
import { parseInteger } from "../../src/config/parse_integer.ts";

Deno.test("parseInteger follows Python int() for base-10 text", async (t) => {
  const valid: [string, number][] = [
    ["42", 42],
    [" 42 ", 42],
    ["\t7\n", 7],
    ["+5", 5],
    ["-5", -5],
    ["-0", 0],
    ["007", 7],
    ["1_000", 1000],
    ["1_2_3", 123],
    ["0_0", 0],
    ["300000", 300_000],
  ];
  for (const [text, expected] of valid) {
    await t.step(`${JSON.stringify(text)} is ${expected}`, () => {
      assert.equal(parseInteger(text), expected);
    });
  }
  const invalid = [
    "",
    "   ",
    "5.0",
    "1e3",
    "0x10",
    "0b1",
    "0o7",
    "_1",
    "1_",
    "1__0",
    "+_1",
    "--1",
    "+-1",
    "- 1",
    "1 2",
    "abc",
    "NaN",
    "Infinity",
    "٣",
  ];
  for (const text of invalid) {
    await t.step(`${JSON.stringify(text)} is not an integer`, () => {
      assert.equal(parseInteger(text), undefined);
    });
  }
});
