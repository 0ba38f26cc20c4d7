import assert from "node:assert/strict";
import fc from "fast-check";
import { OutputLog, type StreamName } from "../../src/core/output_log.ts";
import { Searcher, SearchError, type SearchMatch } from "../../src/core/search.ts";
import { seedFromEnv } from "./output_model.ts";
import { openTestSpool } from "./spool_fixture.ts";

const SEED = seedFromEnv(20_261_215);
console.log(`search properties: fast-check seed ${SEED}`);

const encode = (text: string) => new TextEncoder().encode(text);

/** A log holding the given appends, in order, in memory only. */
function logOf(...appends: [StreamName, string][]): OutputLog {
  const log = new OutputLog({ capacityBytes: 1_000_000 });
  for (const [stream, text] of appends) log.append(stream, encode(text));
  return log;
}

function brief(matches: SearchMatch[]) {
  return matches.map(({ stream, line, text }) => `${stream}:${line}:${text}`);
}

Deno.test("search finds matching lines with positions, line numbers and context", async () => {
  using searcher = new Searcher();
  const log = logOf(
    ["stdout", "compiling a\ncompiling b\n"],
    ["stderr", "warning: old\n"],
    ["stdout", "error: b failed\nstep 3\nstep 4\n"],
  );
  const result = await searcher.search(log, { pattern: "error: (\\w+)", maxOutputBytes: 10_000 });
  assert.equal(result.complete, true);
  assert.equal(result.stoppedBy, null);
  assert.equal(result.evicted, false);
  assert.deepEqual(result.matches, [{
    stream: "stdout",
    seq: 38,
    lineSeq: 38,
    line: 3,
    text: "error: b failed",
    before: ["compiling a", "compiling b"],
    after: ["step 3", "step 4"],
  }]);
  const read = log.read({ startSeq: 38, maxBytes: 6, streams: "stdout" });
  assert.equal(read.stdout, "error:", "seq addresses the match for read(since_seq)");
});

Deno.test("search covers both streams in position order, or one, with per-stream lines", async () => {
  using searcher = new Searcher();
  const log = logOf(
    ["stdout", "ok 1\nFAIL a\n"],
    ["stderr", "FAIL b\n"],
    ["stdout", "FAIL c\n"],
  );
  const both = await searcher.search(log, { pattern: "FAIL", maxOutputBytes: 10_000 });
  assert.deepEqual(brief(both.matches), ["stdout:2:FAIL a", "stderr:1:FAIL b", "stdout:3:FAIL c"]);
  const stderr = await searcher.search(log, {
    pattern: "fail",
    ignoreCase: true,
    streams: "stderr",
    maxOutputBytes: 10_000,
  });
  assert.deepEqual(brief(stderr.matches), ["stderr:1:FAIL b"]);
});

Deno.test("fixed strings match literally, regular expression characters included", async () => {
  using searcher = new Searcher();
  const log = logOf(["stdout", "a.b\naxb\n(x+)+[y]\n"]);
  const dot = await searcher.search(log, {
    pattern: "a.b",
    fixedString: true,
    maxOutputBytes: 999,
  });
  assert.deepEqual(brief(dot.matches), ["stdout:1:a.b"]);
  const regex = await searcher.search(log, { pattern: "a.b", maxOutputBytes: 999 });
  assert.deepEqual(brief(regex.matches), ["stdout:1:a.b", "stdout:2:axb"]);
  const group = await searcher.search(log, {
    pattern: "(x+)+[y]",
    fixedString: true,
    maxOutputBytes: 999,
  });
  assert.deepEqual(brief(group.matches), ["stdout:3:(x+)+[y]"]);
});

Deno.test("bad patterns, cursors and limits get errors that say what to pass", async (t) => {
  using searcher = new Searcher();
  const log = logOf(["stdout", "x\n"]);
  const cases: [string, Parameters<Searcher["search"]>[1], RegExp][] = [
    ["empty pattern", { pattern: "", maxOutputBytes: 99 }, /pattern is empty; pass the text/],
    [
      "invalid regex",
      { pattern: "(unclosed", maxOutputBytes: 99 },
      /not a valid regular expression \(.*\); fix it, or pass fixed_string: true/,
    ],
    [
      "garbage cursor",
      { pattern: "x", cursor: "page 2", maxOutputBytes: 99 },
      /cursor "page 2" is not one a search returned; pass next_cursor/,
    ],
    [
      "cursor of other streams",
      { pattern: "x", cursor: "stdout:1,stderr:1", streams: "stdout", maxOutputBytes: 99 },
      /cursor is for streams stderr,stdout and this search is for stdout; pass the same streams/,
    ],
    [
      "max_matches",
      { pattern: "x", maxMatches: 0, maxOutputBytes: 99 },
      /max_matches must be an integer >= 1: received 0/,
    ],
    [
      "context_lines",
      { pattern: "x", contextLines: 1.5, maxOutputBytes: 99 },
      /context_lines must be an integer >= 0: received 1.5/,
    ],
  ];
  for (const [name, request, message] of cases) {
    await t.step(name, async () => {
      await assert.rejects(searcher.search(log, request), (error: Error) => {
        assert.ok(error instanceof SearchError);
        assert.match(error.message, message);
        assert.doesNotMatch(error.message, /\.$/);
        return true;
      });
    });
  }
});

Deno.test("a catastrophically backtracking pattern is stopped at the time limit", async () => {
  using searcher = new Searcher({ timeLimitMs: 300 });
  const log = logOf(["stdout", "start\n" + "a".repeat(40) + "b\nend\n"]);
  const slow = await searcher.search(log, { pattern: "(a+)+$", maxOutputBytes: 999 });
  assert.equal(slow.stoppedBy, "time_limit");
  assert.equal(slow.slowPattern, true);
  assert.equal(slow.complete, false);
  assert.equal(slow.nextCursor, "stdout:1,stderr:1", "the cursor stays where it stalled");
  // The stalled worker was replaced: the next search works.
  const after = await searcher.search(log, { pattern: "^end$", maxOutputBytes: 999 });
  assert.deepEqual(brief(after.matches), ["stdout:3:end"]);
  assert.equal(after.complete, true);
});

Deno.test("a continuation cursor finds output that arrived after a complete search", async () => {
  using searcher = new Searcher();
  const log = logOf(["stdout", "error: one\nfine\npartial error: two"]);
  const first = await searcher.search(log, { pattern: "error", maxOutputBytes: 9_999 });
  assert.deepEqual(brief(first.matches), ["stdout:1:error: one", "stdout:3:partial error: two"]);
  assert.equal(first.complete, true);
  log.append("stdout", encode(" grows\nerror: three\n"));
  const next = await searcher.search(log, {
    pattern: "error",
    cursor: first.nextCursor,
    maxOutputBytes: 9_999,
  });
  // The unfinished last line continues where the first search stopped: nothing twice.
  assert.deepEqual(brief(next.matches), ["stdout:4:error: three"]);
  const whole = await searcher.search(log, { pattern: "two grows$", maxOutputBytes: 9_999 });
  assert.deepEqual(brief(whole.matches), ["stdout:3:partial error: two grows"]);
});

Deno.test("after eviction without a spool, line numbers are unknown and evicted is set", async () => {
  using searcher = new Searcher();
  const log = new OutputLog({ capacityBytes: 20 });
  log.append("stdout", encode("line 1\nline 2\nline 3\nerror 4\n"));
  const result = await searcher.search(log, { pattern: "error", maxOutputBytes: 999 });
  assert.equal(result.evicted, true);
  assert.deepEqual(brief(result.matches), ["stdout:null:error 4"]);
});

Deno.test("a line longer than a block is searched in pieces", async () => {
  using searcher = new Searcher({ blockBytes: 1024 });
  const long = "x".repeat(5000) + "needle" + "y".repeat(3000);
  const log = logOf(["stdout", `first\n${long}\nlast needle\n`]);
  const result = await searcher.search(log, { pattern: "needle", maxOutputBytes: 99_999 });
  assert.deepEqual(result.matches.map((m) => [m.line, m.seq]), [[2, 7 + 5000], [3, 7 + 8007 + 5]]);
  assert.ok(result.matches[0].text.length <= 502, "a long line is cut around the match");
  assert.ok(result.matches[0].text.includes("needle"));
  // A match across the cut of a block is found whole, once.
  const across = await searcher.search(log, {
    pattern: "x{20}needle",
    contextLines: 0,
    maxOutputBytes: 99_999,
  });
  assert.deepEqual(across.matches.map((m) => [m.line, m.seq]), [[2, 7 + 4980]]);
});

/** grep -n over each stream, as the expected result of a search: [stream, line, lineSeq]. */
function grep(log: OutputLog, stream: StreamName, pattern: RegExp): [StreamName, number, number][] {
  const found: [StreamName, number, number][] = [];
  let line = 1;
  let lineSeq: number | null = null;
  let text = "";
  const finish = () => {
    if (lineSeq !== null && pattern.test(text)) found.push([stream, line, lineSeq]);
  };
  for (const chunk of log.chunksOf(stream, 1)) {
    const chars = new TextDecoder().decode(chunk.bytes);
    let seq = chunk.startSeq;
    for (const char of chars) {
      lineSeq ??= seq;
      if (char === "\n") {
        finish();
        line++;
        lineSeq = null;
        text = "";
      } else text += char;
      seq += encode(char).length;
    }
  }
  finish();
  return found;
}

Deno.test("paging with cursors finds every matching line exactly once (random logs, budgets, blocks)", async () => {
  const root = await Deno.makeTempDir({ prefix: "yieldshell-search-" });
  try {
    await pageEveryMatch(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

async function pageEveryMatch(root: string): Promise<void> {
  await using spool = openTestSpool(root, {
    maxStreamBytes: 1_000_000,
    maxTotalBytes: 100_000_000,
    segmentBytes: 97,
    checkpointBytes: 13,
    stagingBytes: 31,
    blockBytes: 17,
  });
  const word = fc.constantFrom("ok", "error", "ERROR", "é", "中文", "x", "", " ");
  const line = fc.array(word, { maxLength: 5 }).map((words) => words.join(" "));
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom<StreamName>("stdout", "stderr"), line, fc.boolean()), {
        maxLength: 60,
      }),
      // Blocks hold whole lines here (lines are at most 34 bytes); a cut line has its own test.
      fc.integer({ min: 64, max: 300 }),
      fc.integer({ min: 1, max: 5 }),
      fc.integer({ min: 1, max: 400 }),
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom<"both" | StreamName>("both", "stdout", "stderr"),
      fc.constantFrom(0, 5, 1_000_000),
      async (writes, blockBytes, maxMatches, maxOutputBytes, contextLines, streams, cache) => {
        using paged = new Searcher({ blockBytes });
        {
          // A cache of 1 MB keeps everything in memory; smaller ones read most lines from disk.
          const log = cache === 1_000_000
            ? new OutputLog({ capacityBytes: cache })
            : new OutputLog({ capacityBytes: Math.max(1, cache), spool: spool.forExecution() });
          for (const [stream, text, newline] of writes) {
            if (text.length > 0 || newline) {
              log.append(stream, encode(text + (newline ? "\n" : "")));
            }
          }
          const names: StreamName[] = streams === "both" ? ["stdout", "stderr"] : [streams];
          const expected = names.flatMap((stream) => grep(log, stream, /error/i))
            .sort((a, b) => a[2] - b[2]);
          const seen: [StreamName, number, number][] = [];
          let cursor: string | null = null;
          for (let calls = 0; calls <= expected.length + 2; calls++) {
            const result = await paged.search(log, {
              pattern: "error",
              ignoreCase: true,
              streams,
              cursor,
              maxMatches,
              maxOutputBytes,
              contextLines,
            });
            for (const match of result.matches) {
              assert.equal(match.seq >= match.lineSeq, true);
              assert.ok(match.before.length <= contextLines && match.after.length <= contextLines);
              seen.push([match.stream, match.line!, match.lineSeq]);
            }
            cursor = result.nextCursor;
            if (result.complete) break;
            assert.ok(result.matches.length > 0, "an incomplete page makes progress");
          }
          seen.sort((a, b) => a[2] - b[2]);
          assert.deepEqual(seen, expected);
          log.close();
        }
      },
    ),
    { seed: SEED, numRuns: 150 },
  );
}

Deno.test("search finds a line near the start of a 200 MB spooled history in one call", async () => {
  const root = await Deno.makeTempDir({ prefix: "yieldshell-search-200mb-" });
  try {
    await using spool = openTestSpool(root);
    const log = new OutputLog({ capacityBytes: 262_144, spool: spool.forExecution() });
    log.append("stdout", encode("build started\n".repeat(9) + "error: step 10 failed\n"));
    // 1 MiB of ordinary lines, appended 200 times (the log keeps only views of it in memory).
    const filler = encode("compiling module 0123456789 ok\n".repeat(33_825));
    for (let copy = 0; copy < 200; copy++) log.append("stdout", filler);
    log.append("stderr", encode("done\n"));
    assert.ok(log.latestSeq > 200_000_000);
    using searcher = new Searcher();
    const result = await searcher.search(log, {
      pattern: "error: step \\d+",
      maxOutputBytes: 20_000,
    });
    assert.equal(result.matches[0]?.line, 10);
    assert.equal(result.matches[0].text, "error: step 10 failed");
    assert.deepEqual(result.matches[0].before, ["build started", "build started"]);
    console.log(
      `200 MB search: ${result.scannedBytes} bytes scanned in one call, complete: ${result.complete}`,
    );
    log.close();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
