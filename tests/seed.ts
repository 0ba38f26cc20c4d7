/**
 * The seed of every randomized test (fast-check properties, the tool-input fuzzer, the
 * differential shell tests). `deno task test` uses each suite's fixed default, so the gate is
 * deterministic; `YIELDSHELL_TEST_SEED=<integer>` replays or explores another seed, and
 * `YIELDSHELL_TEST_SEED=random` draws a fresh one. `deno task fuzz` (scripts/fuzz.ts) runs the
 * randomized suites with fresh seeds. The seed in use is always printed, so a failure can be
 * replayed:
 *
 * ```ts
 * const SEED = testSeed("output properties", 20_260_607);
 * fc.assert(property, { seed: SEED, numRuns: 500 });
 * ```
 */

/** The environment variable that overrides every suite's fixed seed. */
export const SEED_VARIABLE = "YIELDSHELL_TEST_SEED";

/** Largest seed: fast-check seeds are 32-bit integers. */
const MAX_SEED = 2 ** 31 - 1;

/**
 * The seed for the suite `label`: `fixed`, unless `YIELDSHELL_TEST_SEED` names another one.
 * Prints it with the command that replays it. Throws on a value that is not a seed.
 */
export function testSeed(label: string, fixed: number): number {
  const seed = parseSeed(Deno.env.get(SEED_VARIABLE) ?? "", fixed);
  console.log(`${label}: seed ${seed} (replay with ${SEED_VARIABLE}=${seed})`);
  return seed;
}

/** Reads a seed setting: empty means `fixed`, `random` draws one, else an integer. */
export function parseSeed(value: string, fixed: number): number {
  const text = value.trim();
  if (text === "") return fixed;
  if (text === "random") return randomSeed();
  if (!/^-?\d+$/.test(text) || Math.abs(Number(text)) > MAX_SEED) {
    throw new Error(
      `${SEED_VARIABLE} must be an integer between -${MAX_SEED} and ${MAX_SEED}, or 'random': received '${value}'`,
    );
  }
  return Number(text);
}

/** A fresh seed from the system's random source. */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] % MAX_SEED;
}
