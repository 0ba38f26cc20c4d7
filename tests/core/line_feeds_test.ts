import assert from "node:assert/strict";
import fc from "fast-check";
import { countLineFeeds } from "../../src/core/utf8.ts";
import { seedFromEnv } from "./output_model.ts";

const SEED = seedFromEnv(20_261_218);

Deno.test("countLineFeeds counts every 0x0a at any alignment and length", () => {
  console.log(`line feed counting: fast-check seed ${SEED}`);
  const byte = fc.oneof(
    fc.constant(0x0a),
    fc.constantFrom(0x00, 0x0b, 0x09, 0x8a, 0xff),
    fc.nat(255),
  );
  fc.assert(
    fc.property(fc.array(byte, { maxLength: 300 }), fc.nat(7), fc.nat(7), (values, from, cut) => {
      const bytes = new Uint8Array(values);
      const view = bytes.subarray(Math.min(from, bytes.length), Math.max(0, bytes.length - cut));
      assert.equal(countLineFeeds(view), view.filter((value) => value === 0x0a).length);
    }),
    { seed: SEED, numRuns: 2_000 },
  );
});
