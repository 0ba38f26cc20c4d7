/**
 * Property tests of the output layer (issue #7): random interleavings of stdout and stderr
 * chunks (multi-byte characters split across chunks, some invalid bytes) fed through
 * `Utf8Normalizer` into an `OutputLog` of random capacity, with random reads in between:
 * cursorless-style resume polling, `since_seq` loops, narrowed streams, tails, page caps.
 * Every page is checked against a byte-level model that knows each position's stream, byte
 * and whether the ring buffer has dropped it.
 *
 * Sizes: 500 runs per property by default; `YIELDSHELL_LONG_TESTS=1` runs 10 000.
 * Seed: fixed (printed), so CI is reproducible; `YIELDSHELL_TEST_SEED=<n>` (or
 * `YIELDSHELL_FC_SEED`) replays another one and `random` explores. The model and the scenario
 * runner live in output_model.ts.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { OutputLog, type StreamName } from "../../src/core/output_log.ts";
import { Utf8Normalizer } from "../../src/core/utf8.ts";
import {
  concat,
  decode,
  Model,
  normalizeAtOnce,
  pageCap,
  runScenario,
  scenario,
  seedFromEnv,
  streamOutput,
  STREAMS,
} from "./output_model.ts";

const LONG = Deno.env.get("YIELDSHELL_LONG_TESTS") === "1";
const RUNS = LONG ? 10_000 : 500;
const SEED = seedFromEnv(20_260_607);
console.log(`output properties: fast-check seed ${SEED}, ${RUNS} runs per property`);

// ---------------------------------------------------------------------------------------------
// The properties.

Deno.test("output layer: random interleavings, capacities and reads keep every invariant", () => {
  fc.assert(
    fc.property(scenario, (s) => {
      runScenario(s, new OutputLog({ capacityBytes: s.capacityBytes }), new Model(s.capacityBytes));
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

Deno.test("output layer: without eviction, polled text equals the output exactly", () => {
  fc.assert(
    fc.property(
      streamOutput(false),
      streamOutput(false),
      fc.array(fc.constantFrom<StreamName>("stdout", "stderr"), { maxLength: 80 }),
      fc.array(pageCap, { minLength: 1, maxLength: 10 }),
      (stdout, stderr, order, caps) => {
        const log = new OutputLog({ capacityBytes: 1_000_000 });
        const normalizers = { stdout: new Utf8Normalizer(), stderr: new Utf8Normalizer() };
        const pending = { stdout: [...stdout.chunks], stderr: [...stderr.chunks] };
        const texts = { stdout: "", stderr: "" };
        let cursor = 1;
        let reads = 0;
        const poll = () => {
          const page = log.read({ startSeq: cursor, maxBytes: caps[reads++ % caps.length] });
          assert.ok(page.nextSeq >= cursor);
          assert.equal(page.evicted, false);
          texts.stdout += page.stdout;
          texts.stderr += page.stderr;
          cursor = page.nextSeq;
          return page;
        };
        const append = (stream: StreamName, chunk: Uint8Array) => {
          const bytes = normalizers[stream].push(chunk);
          if (bytes.length > 0) log.append(stream, bytes);
        };
        for (const stream of order) {
          const chunk = pending[stream].shift();
          if (chunk !== undefined) append(stream, chunk);
          poll();
        }
        for (const stream of STREAMS) {
          for (const chunk of pending[stream]) append(stream, chunk);
          const rest = normalizers[stream].flush();
          if (rest.length > 0) log.append(stream, rest);
        }
        while (poll().capped) { /* drain */ }
        assert.deepEqual(texts, { stdout: decode(stdout.raw), stderr: decode(stderr.raw) });
        assert.equal(cursor, log.latestSeq);
      },
    ),
    { seed: SEED, numRuns: RUNS },
  );
});

// Pipes never deliver empty chunks, so the properties above do not generate them; the
// normalizer's contract does not exclude them, and this property shows what goes wrong.
Deno.test("Utf8Normalizer streamed output equals one-shot decoding, empty chunks included", () => {
  fc.assert(
    fc.property(streamOutput(true), fc.array(fc.nat(), { maxLength: 6 }), (output, empties) => {
      const pieces = [...output.chunks];
      for (const at of empties) pieces.splice(at % (pieces.length + 1), 0, new Uint8Array(0));
      const normalizer = new Utf8Normalizer();
      const streamed = [...pieces.map((piece) => normalizer.push(piece)), normalizer.flush()];
      assert.deepEqual(concat(streamed), normalizeAtOnce(output.raw));
    }),
    { seed: SEED, numRuns: RUNS },
  );
});
