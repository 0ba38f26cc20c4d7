import assert from "node:assert/strict";
import { RegexWorker } from "../../src/core/regex_worker.ts";

const spec = (source: string) => ({ source, flags: "mu" });

Deno.test("regex worker: finds the first match, or none", async () => {
  using runner = new RegexWorker();
  assert.deepEqual(await runner.exec(spec("b+"), "abbc bbb"), {
    kind: "match",
    index: 1,
    text: "bb",
  });
  assert.deepEqual(await runner.exec(spec("z"), "abc"), { kind: "none" });
  // Compiled patterns are cached: the same regex object must not carry lastIndex between runs.
  assert.deepEqual(await runner.exec(spec("b+"), "xb"), { kind: "match", index: 1, text: "b" });
});

Deno.test("regex worker: a catastrophic pattern is killed at the deadline, queued attempts still run", async () => {
  using runner = new RegexWorker({ deadlineMs: 200 });
  const catastrophic = runner.exec(spec("(a+)+$"), `${"a".repeat(40)}!`);
  const queued = runner.exec(spec("ok"), "it is ok");
  const timerFired = new Promise<"timer">((resolve) => setTimeout(() => resolve("timer"), 1));
  // The main thread is free while the worker backtracks: a 1 ms timer fires first.
  assert.equal(
    await Promise.race([catastrophic.then(() => "regex" as const), timerFired]),
    "timer",
  );
  assert.deepEqual(await catastrophic, { kind: "timeout", deadlineMs: 200 });
  assert.deepEqual(await queued, { kind: "match", index: 6, text: "ok" });
});

Deno.test("regex worker: attempts run in order and each gets the answer to its own text", async () => {
  using runner = new RegexWorker();
  const texts = Array.from({ length: 50 }, (_, index) => `${"-".repeat(index)}x`);
  const outcomes = await Promise.all(texts.map((text) => runner.exec(spec("x"), text)));
  outcomes.forEach((outcome, index) =>
    assert.deepEqual(outcome, { kind: "match", index, text: "x" })
  );
});

Deno.test("regex worker: after close every attempt answers at once with an error", async () => {
  const runner = new RegexWorker();
  assert.equal((await runner.exec(spec("a"), "a")).kind, "match");
  runner.close();
  runner.close();
  assert.deepEqual(await runner.exec(spec("a"), "a"), { kind: "error", message: "closed" });
});

Deno.test("regex worker: closing during an attempt ends it at once", async () => {
  const runner = new RegexWorker({ deadlineMs: 60_000 });
  const stuck = runner.exec(spec("(a+)+$"), `${"a".repeat(40)}!`);
  const queued = runner.exec(spec("a"), "a");
  runner.close();
  assert.deepEqual(await stuck, { kind: "error", message: "closed" });
  assert.deepEqual(await queued, { kind: "error", message: "closed" });
});

Deno.test("regex worker: search blocks and until attempts run on one worker, in order", async () => {
  using runner = new RegexWorker({ deadlineMs: 200 });
  const bytes = (text: string) => new TextEncoder().encode(text);
  const block = (source: string, text: string) => ({
    source,
    flags: "gmu",
    bytes: bytes(text),
    searchedBytes: bytes(text).length,
    maxMatches: 10,
    contextLines: 0,
    leading: [],
    maxLineChars: 500,
  });
  const found = await runner.matchBlock(block("b+", "a\nbb\n"), performance.now() + 5_000);
  assert.ok(found !== "timeout");
  assert.deepEqual(found.matches.map((match) => match.text), ["bb"]);
  // A block that backtracks without end is cut off (at 2 s at the least) and the attempt queued
  // behind it runs on the fresh worker.
  const stalled = runner.matchBlock(block("(a+)+$", `${"a".repeat(40)}!`), performance.now());
  const queued = runner.exec(spec("ok"), "it is ok");
  assert.equal(await stalled, "timeout");
  assert.deepEqual(await queued, { kind: "match", index: 6, text: "ok" });
});

Deno.test("regex worker: a closed worker refuses blocks with an error that says so", async () => {
  const runner = new RegexWorker();
  runner.close();
  await assert.rejects(
    runner.matchBlock({
      source: "a",
      flags: "gmu",
      bytes: new Uint8Array(1),
      searchedBytes: 1,
      maxMatches: 1,
      contextLines: 0,
      leading: [],
      maxLineChars: 500,
    }, performance.now() + 1_000),
    /The regex worker was closed/,
  );
});
