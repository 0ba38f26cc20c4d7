/**
 * Property tests of the spooled output log (issue #14) against the byte-level model of
 * output_model.ts: the same random interleavings, reads and tails as the all-memory log, with
 * the ring buffer as a small cache of a real disk spool (tiny segments, checkpoints, staging
 * buffers and read blocks, so that every path of the record files is taken). With
 * `max_spool_bytes` as the model's capacity, every page must be exactly what an all-memory
 * buffer of that size gives; with a tiny server-wide total and a neighbour execution flooding
 * the same spool, whole segments go and the pages stay consistent with the reported watermark.
 *
 * Sizes: 300 runs per property by default; `YIELDSHELL_LONG_TESTS=1` runs 5 000.
 * Seed: fixed and printed; `YIELDSHELL_TEST_SEED=<n>` replays another one, `random` explores.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { OutputLog } from "../../src/core/output_log.ts";
import { Spool, type SpoolOptions } from "../../src/core/spool.ts";
import { Model, runScenario, scenario, seedFromEnv, STREAMS } from "./output_model.ts";
import { quietDisk } from "./spool_fixture.ts";

const LONG = Deno.env.get("YIELDSHELL_LONG_TESTS") === "1";
const RUNS = LONG ? 5_000 : 300;
const SEED = seedFromEnv(20_261_214);
console.log(`spooled log properties: fast-check seed ${SEED}, ${RUNS} runs per property`);

/** Sizes small enough that a few hundred bytes cross segments, checkpoints and blocks. */
const tuning = fc.record({
  cacheFraction: fc.double({ min: 0, max: 1, noNaN: true }),
  segmentBytes: fc.integer({ min: 1, max: 3_000 }),
  checkpointBytes: fc.integer({ min: 1, max: 400 }),
  stagingBytes: fc.integer({ min: 1, max: 600 }),
  blockBytes: fc.integer({ min: 1, max: 200 }),
});

type Tuning = typeof tuning extends fc.Arbitrary<infer T> ? T : never;

function spoolOptions(root: string, cap: number, total: number, t: Tuning): SpoolOptions {
  return {
    disk: quietDisk,
    root,
    pid: Deno.pid,
    maxStreamBytes: cap,
    maxTotalBytes: total,
    segmentBytes: t.segmentBytes,
    checkpointBytes: t.checkpointBytes,
    stagingBytes: t.stagingBytes,
    blockBytes: t.blockBytes,
  };
}

function cacheBytes(cap: number, t: Tuning): number {
  return Math.max(1, Math.round(cap * t.cacheFraction));
}

Deno.test("spooled log: with max_spool_bytes as capacity, every page matches the model", async () => {
  const root = await Deno.makeTempDir({ prefix: "yieldshell-spool-props-" });
  try {
    await fc.assert(
      fc.asyncProperty(scenario, tuning, async (s, t) => {
        const spool = Spool.open(spoolOptions(root, s.capacityBytes, 2 ** 40, t));
        assert.equal(spool.problem, null);
        const log = new OutputLog({
          capacityBytes: cacheBytes(s.capacityBytes, t),
          spool: spool.forExecution(),
        });
        try {
          assert.equal(log.spooled, true);
          runScenario(s, log, new Model(s.capacityBytes));
          assert.equal(log.spoolProblem, null);
        } finally {
          log.close();
          assert.equal(spool.usedBytes, 0, "closing the log deletes its segments");
          assert.deepEqual([...Deno.readDirSync(spool.directory!)], [], "and its directory");
          await spool.close();
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.deepEqual([...Deno.readDirSync(root)], [], "closing the spool deletes its directory");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("spooled log: a tiny server total and a flooding neighbour drop whole segments consistently", async () => {
  const root = await Deno.makeTempDir({ prefix: "yieldshell-spool-props-" });
  try {
    await fc.assert(
      fc.asyncProperty(
        scenario,
        tuning,
        fc.integer({ min: 0, max: 3_000 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 20 }),
        async (s, t, total, floods) => {
          const spool = Spool.open(spoolOptions(root, s.capacityBytes, total, t));
          const cache = cacheBytes(s.capacityBytes, t);
          const log = new OutputLog({ capacityBytes: cache, spool: spool.forExecution() });
          const neighbour = new OutputLog({ capacityBytes: 1, spool: spool.forExecution() });
          const model = new Model(s.capacityBytes);
          const seen = { stdout: 0, stderr: 0 };
          let appends = 0;
          try {
            runScenario(s, log, model, () => {
              const flood = floods[appends++ % floods.length];
              if (flood > 0) neighbour.append("stdout", new Uint8Array(flood).fill(0x78));
              // Settle both spools (a write may evict another stream's files), then take the
              // watermarks the total left as the model's floors.
              for (let round = 0; round < 2; round++) {
                for (const stream of STREAMS) [...log.chunksOf(stream, log.latestSeq)];
              }
              assert.ok(spool.usedBytes <= total, `spool holds ${spool.usedBytes} > ${total}`);
              for (const stream of STREAMS) {
                const watermark = log.watermark(stream) ?? 0;
                assert.ok(watermark >= seen[stream], "a watermark never moves back");
                assert.ok(watermark >= model.watermark(stream), "the cap still applies");
                seen[stream] = watermark;
                model.raiseFloor(stream, watermark);
              }
            });
            assert.equal(log.spoolProblem, null);
          } finally {
            log.close();
            neighbour.close();
            assert.equal(spool.usedBytes, 0);
            await spool.close();
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
