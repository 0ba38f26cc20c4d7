/**
 * Explores fresh seeds for the randomized tests (not part of `deno task ok`, which runs them
 * with their fixed default seeds). Each run draws a seed, prints it, and runs the randomized
 * suites with `YIELDSHELL_TEST_SEED` set to it, so any failure can be replayed:
 *
 *     deno task fuzz                        # one run of every randomized suite
 *     deno task fuzz --runs 20 tests/policy/command_names_fuzz_test.ts
 *     deno task fuzz --seed 12345           # replay one seed
 *
 * Exits 1 when any run failed, after listing the seeds that failed.
 */
import { parseArgs } from "node:util";
import { parseSeed, randomSeed, SEED_VARIABLE } from "../tests/seed.ts";

/** Every test file whose inputs come from a seed (tests/seed.ts). */
const RANDOMIZED_SUITES = [
  "tests/policy/command_names_fuzz_test.ts",
  "tests/policy/differential_test.ts",
  "tests/core/output_properties_test.ts",
  "tests/core/output_log_test.ts",
  "tests/e2e/fuzz_test.ts",
  "tests/transports/line_splitter_test.ts",
];

const USAGE =
  "Usage: deno task fuzz [--runs N] [--seed S] [test files...]; by default one run of every randomized suite with a fresh seed";

function options(): { runs: number; seed: number | null; files: string[] } {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { runs: { type: "string" }, seed: { type: "string" }, help: { type: "boolean" } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    Deno.exit(0);
  }
  const runs = Number(values.runs ?? "1");
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`--runs must be a positive integer: received '${values.runs}'`);
  }
  const seed = values.seed === undefined ? null : parseSeed(values.seed, 0);
  return { runs, seed, files: positionals.length > 0 ? positionals : RANDOMIZED_SUITES };
}

async function runOnce(seed: number, files: readonly string[]): Promise<boolean> {
  console.log(`fuzz: ${SEED_VARIABLE}=${seed} deno test -P=test ${files.join(" ")}`);
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["test", "-P=test", "--parallel", ...files],
    env: { [SEED_VARIABLE]: String(seed) },
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return success;
}

async function main(): Promise<number> {
  let settings;
  try {
    settings = options();
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
    return 2;
  }
  const { runs, seed, files } = settings;
  const failed: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const chosen = seed ?? randomSeed();
    console.log(`fuzz: run ${run} of ${runs}, seed ${chosen}`);
    if (!(await runOnce(chosen, files))) failed.push(chosen);
  }
  if (failed.length === 0) {
    console.log(`fuzz: ${runs} run(s) passed`);
    return 0;
  }
  console.error(
    `fuzz: ${failed.length} of ${runs} run(s) failed; replay each with ${SEED_VARIABLE}=<seed> deno test -P=test ${
      files.join(" ")
    }; failing seeds: ${failed.join(", ")}`,
  );
  return 1;
}

Deno.exit(await main());
