import assert from "node:assert/strict";
import { integer } from "../../src/mcp/schemas.ts";

Deno.test("integer accepts integers and the decimal text of an integer", async (t) => {
  const cases: [unknown, number][] = [[3000, 3000], ["3000", 3000], ["-3", -3], ["0", 0], [
    "007",
    7,
  ]];
  for (const [input, expected] of cases) {
    await t.step(JSON.stringify(input), () => assert.equal(integer().parse(input), expected));
  }
});

Deno.test("integer refuses everything else with a message that says what is accepted", async (t) => {
  const cases: unknown[] = ["3.5", "abc", " 3", "3 ", "", "+3", "1e3", "0x10", 3.5, true, null, [
    3,
  ]];
  for (const input of cases) {
    await t.step(JSON.stringify(input), () => {
      const result = integer().safeParse(input);
      assert.equal(result.success, false);
      assert.equal(
        result.error?.issues[0].message,
        `Expected an integer (digits in a string such as "3000" are accepted too); received ${
          JSON.stringify(input)
        }`,
      );
    });
  }
  await t.step("beyond the safe range", () => {
    assert.equal(integer().safeParse("99999999999999999999").success, false);
    assert.equal(integer().safeParse(2 ** 53).success, false);
  });
});
