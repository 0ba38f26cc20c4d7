import assert from "node:assert/strict";
import { nearestName } from "../../src/config/nearest_name.ts";

const SPELLINGS = new Map([
  ["port", "port"],
  ["YIELDSHELL_PORT", "port"],
  ["host", "host"],
  ["max_output_bytes", "max_output_bytes"],
  ["max_buffer_bytes", "max_buffer_bytes"],
  ["yield-ms", "default_yield_ms"],
  ["default_yield_ms", "default_yield_ms"],
]);

Deno.test("nearestName finds the name of the nearest spelling, blind to case and punctuation", async (t) => {
  const cases: [string, string][] = [
    ["prot", "port"],
    ["Port", "port"],
    ["yieldshell-port", "port"],
    ["maxOutputBytes", "max_output_bytes"],
    ["max_output_length", "max_output_bytes"],
    ["MAX_BUFER_BYTES", "max_buffer_bytes"],
    ["yield_ms", "default_yield_ms"],
    ["hots", "host"],
  ];
  for (const [word, expected] of cases) {
    await t.step(word, () => assert.equal(nearestName(word, SPELLINGS), expected));
  }
});

Deno.test("nearestName: the first of equally near spellings wins", () => {
  assert.equal(nearestName("xx", new Map([["ab", "first"], ["cd", "second"]])), "first");
});
