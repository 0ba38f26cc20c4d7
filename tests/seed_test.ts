import assert from "node:assert/strict";
import { parseSeed } from "./seed.ts";

Deno.test("parseSeed: empty means the fixed seed, integers replay, random draws, junk is refused", () => {
  assert.equal(parseSeed("", 42), 42);
  assert.equal(parseSeed("  ", 42), 42);
  assert.equal(parseSeed("12345", 42), 12345);
  assert.equal(parseSeed("-7", 42), -7);
  const drawn = parseSeed("random", 42);
  assert.ok(Number.isInteger(drawn) && drawn >= 0 && drawn < 2 ** 31, String(drawn));
  for (const bad of ["1.5", "abc", "99999999999", "0x10"]) {
    assert.throws(
      () => parseSeed(bad, 42),
      new RegExp(
        `^Error: YIELDSHELL_TEST_SEED must be an integer .+ or 'random': received '${bad}'$`,
      ),
    );
  }
});
