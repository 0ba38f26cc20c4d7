import assert from "node:assert/strict";
import fc from "fast-check";
import {
  OutputLog,
  type OutputPage,
  type StreamName,
  type StreamSelection,
} from "../../src/core/output_log.ts";
import { Utf8Normalizer } from "../../src/core/utf8.ts";
import { testSeed } from "../seed.ts";

const SEED = testSeed("output log paging", 31_337);

const encode = (text: string) => new TextEncoder().encode(text);

/** A log holding the given appends, in order. */
function logOf(capacityBytes: number, ...appends: [StreamName, string][]): OutputLog {
  const log = new OutputLog({ capacityBytes });
  for (const [stream, text] of appends) log.append(stream, encode(text));
  return log;
}

/** Text read from `startSeq` after a `tailStart` or `newestStart` result. */
function textFrom(log: OutputLog, startSeq: number, streams: StreamSelection = "both") {
  const { stdout, stderr } = log.read({ startSeq, maxBytes: 1_000_000, streams });
  return { stdout, stderr };
}

Deno.test("OutputLog positions start at 1 and are shared by both streams", () => {
  const log = new OutputLog({ capacityBytes: 4 });
  assert.equal(log.latestSeq, 1);
  log.append("stdout", encode("abc"));
  log.append("stderr", encode("€"));
  log.append("stdout", new Uint8Array());
  log.append("stdout", encode("de"));
  assert.equal(log.latestSeq, 9);
  assert.equal(log.bytesCaptured("stdout"), 5, "evicted bytes still count");
  assert.equal(log.bytesCaptured("stderr"), 3);
});

Deno.test("OutputLog.read() merges streams in position order with one shared budget", async (t) => {
  // The worked example of the contract, section 3.
  const log = logOf(100, ["stdout", "abc"], ["stderr", "DEF"], ["stdout", "ghi"]);
  const pages: [number, Partial<OutputPage>][] = [
    [1, { stdout: "abc", stderr: "D", startSeq: 1, nextSeq: 5, capped: true }],
    [5, { stdout: "gh", stderr: "EF", startSeq: 5, nextSeq: 9, capped: true }],
    [9, { stdout: "i", stderr: "", startSeq: 9, nextSeq: 10, capped: false }],
    [10, { stdout: "", stderr: "", startSeq: 10, nextSeq: 10, capped: false }],
  ];
  for (const [startSeq, expected] of pages) {
    await t.step(`page from ${startSeq}`, () => {
      const page = log.read({ startSeq, maxBytes: 4 });
      assert.deepEqual(page, { evicted: false, ...expected });
    });
  }
});

Deno.test("OutputLog.read() after eviction reports evicted and capped together", () => {
  const log = logOf(10, ["stdout", "0123456789"], ["stdout", "ABCDEFGHIJ"]);
  assert.deepEqual(log.read({ startSeq: 1, maxBytes: 4 }), {
    stdout: "ABCD",
    stderr: "",
    startSeq: 11,
    nextSeq: 15,
    capped: true,
    evicted: true,
  });
  assert.equal(log.latestSeq, 21);
});

Deno.test("OutputLog.read() takes one whole character when the budget fits none", () => {
  const log = logOf(100, ["stdout", "€"]);
  assert.deepEqual(log.read({ startSeq: 1, maxBytes: 1 }), {
    stdout: "€",
    stderr: "",
    startSeq: 1,
    nextSeq: 4,
    capped: false,
    evicted: false,
  });
});

Deno.test("OutputLog.read() never splits a character", async (t) => {
  // a at 1, € at 2-4, b at 5; stderr é at 6-7.
  const log = logOf(100, ["stdout", "a€b"], ["stderr", "é"]);
  const cases: [string, number, number, Partial<OutputPage>][] = [
    ["cut before the character", 1, 2, { stdout: "a", nextSeq: 2, capped: true }],
    ["cut inside it", 1, 3, { stdout: "a", nextSeq: 2, capped: true }],
    ["character over budget, first", 2, 2, { stdout: "€", nextSeq: 5, capped: true }],
    ["character fits exactly", 2, 3, { stdout: "€", nextSeq: 5, capped: true }],
    ["second segment fits no char", 5, 2, { stdout: "b", stderr: "", nextSeq: 6, capped: true }],
    ["second segment fits one char", 5, 3, { stdout: "b", stderr: "é", nextSeq: 8 }],
  ];
  for (const [name, startSeq, maxBytes, expected] of cases) {
    await t.step(name, () => {
      const page = log.read({ startSeq, maxBytes });
      assert.deepEqual(page, {
        stdout: "",
        stderr: "",
        startSeq,
        capped: false,
        evicted: false,
        ...expected,
      });
    });
  }
});

Deno.test("OutputLog.read() includes a chunk that starts exactly at the cursor", () => {
  const log = logOf(100, ["stdout", "ab"], ["stdout", "cd"], ["stderr", "EF"]);
  const page = log.read({ startSeq: 3, maxBytes: 100 });
  assert.deepEqual([page.stdout, page.stderr, page.startSeq, page.nextSeq], ["cd", "EF", 3, 7]);
});

Deno.test("OutputLog.read() budget edges", async (t) => {
  const log = logOf(100, ["stdout", "ab"], ["stderr", "cd"]);
  await t.step("budget used up exactly with more segments left is capped", () => {
    const page = log.read({ startSeq: 1, maxBytes: 2 });
    assert.deepEqual([page.stdout, page.stderr, page.nextSeq, page.capped], ["ab", "", 3, true]);
  });
  await t.step("budget used up exactly by the last segment is not capped", () => {
    const page = log.read({ startSeq: 1, maxBytes: 4 });
    assert.deepEqual([page.stdout, page.stderr, page.nextSeq, page.capped], ["ab", "cd", 5, false]);
  });
  await t.step("zero budget takes nothing and stays at the start", () => {
    assert.deepEqual(log.read({ startSeq: 2, maxBytes: 0 }), {
      stdout: "",
      stderr: "",
      startSeq: 2,
      nextSeq: 2,
      capped: true,
      evicted: false,
    });
  });
  await t.step("zero budget with nothing to read is not capped", () => {
    const page = log.read({ startSeq: 5, maxBytes: 0 });
    assert.deepEqual([page.nextSeq, page.capped], [5, false]);
  });
});

Deno.test("OutputLog.read() clamps a start beyond latestSeq", () => {
  const log = logOf(100, ["stdout", "abc"]);
  for (const startSeq of [4, 5, 1000]) {
    assert.deepEqual(log.read({ startSeq, maxBytes: 10 }), {
      stdout: "",
      stderr: "",
      startSeq: 4,
      nextSeq: 4,
      capped: false,
      evicted: false,
    });
  }
});

Deno.test("OutputLog.read() from <= 1 starts at the oldest retained byte", async (t) => {
  await t.step("nothing captured", () => {
    for (const startSeq of [-3, 0, 1]) {
      assert.deepEqual(new OutputLog({ capacityBytes: 4 }).read({ startSeq, maxBytes: 10 }), {
        stdout: "",
        stderr: "",
        startSeq: 1,
        nextSeq: 1,
        capped: false,
        evicted: false,
      });
    }
  });
  await t.step("nothing evicted", () => {
    const log = logOf(10, ["stdout", "ab"], ["stderr", "cd"]);
    for (const startSeq of [-3, 0, 1]) {
      const page = log.read({ startSeq, maxBytes: 10 });
      assert.deepEqual([page.stdout, page.stderr, page.startSeq, page.evicted], [
        "ab",
        "cd",
        1,
        false,
      ]);
    }
  });
  await t.step("evicted in a selected stream", () => {
    const log = logOf(2, ["stdout", "abcd"], ["stderr", "ef"]);
    for (const startSeq of [-3, 0, 1]) {
      const page = log.read({ startSeq, maxBytes: 10 });
      assert.deepEqual([page.stdout, page.stderr, page.startSeq, page.evicted], [
        "cd",
        "ef",
        3,
        true,
      ]);
      assert.equal(log.read({ startSeq, maxBytes: 10, streams: "stdout" }).evicted, true);
    }
  });
  await t.step("evicted only in an unselected stream", () => {
    const log = logOf(2, ["stdout", "abcd"], ["stderr", "ef"]);
    const page = log.read({ startSeq: 0, maxBytes: 10, streams: "stderr" });
    assert.deepEqual([page.stderr, page.startSeq, page.evicted], ["ef", 5, false]);
  });
});

Deno.test("OutputLog.read() reports eviction only when the range overlaps it", async (t) => {
  // stdout keeps 6-7 of "abcdefg" (watermark 6); stderr keeps all of "XY" at 8-9.
  const log = logOf(2, ["stdout", "abcdefg"], ["stderr", "XY"]);
  const cases: [number, StreamSelection, boolean][] = [
    [2, "both", true],
    [5, "both", true],
    [6, "both", false],
    [7, "both", false],
    [5, "stdout", true],
    [5, "stderr", false],
  ];
  for (const [startSeq, streams, expected] of cases) {
    await t.step(`from ${startSeq}, ${streams}`, () => {
      assert.equal(log.read({ startSeq, maxBytes: 10, streams }).evicted, expected);
    });
  }
  await t.step("a range of evicted bytes only", () => {
    const all = logOf(2, ["stdout", "€"]);
    assert.deepEqual(all.read({ startSeq: 1, maxBytes: 10 }), {
      stdout: "",
      stderr: "",
      startSeq: 4,
      nextSeq: 4,
      capped: false,
      evicted: true,
    });
  });
});

Deno.test("OutputLog.read() skips evicted positions but never moves backwards", async (t) => {
  // stdout "abc" 1-3, stderr "def" 4-6, stdout "ghi" 7-9 (stdout watermark 4),
  // stderr "jkl" 10-12 (stderr watermark 7): both streams have evicted.
  const log = logOf(3, ["stdout", "abc"], ["stderr", "def"], ["stdout", "ghi"], ["stderr", "jkl"]);
  const cases: [number, StreamSelection, number][] = [
    [13, "both", 13],
    [12, "both", 13],
    [10, "stdout", 10],
    [13, "stdout", 13],
    [8, "stderr", 13],
    [2, "stdout", 10],
    [1, "stderr", 13],
  ];
  for (const [startSeq, streams, expected] of cases) {
    await t.step(`from ${startSeq}, ${streams}`, () => {
      const page = log.read({ startSeq, maxBytes: 100, streams });
      assert.equal(page.nextSeq, expected);
      assert.ok(page.nextSeq >= Math.min(startSeq, log.latestSeq));
      assert.ok(page.nextSeq <= log.latestSeq);
    });
  }
  await t.step("a wholly evicted selected stream jumps to its watermark", () => {
    const evicted = logOf(2, ["stdout", "€"], ["stderr", "ab"]);
    const page = evicted.read({ startSeq: 2, maxBytes: 100, streams: "stdout" });
    assert.deepEqual([page.stdout, page.startSeq, page.nextSeq, page.evicted], ["", 4, 4, true]);
  });
});

Deno.test("OutputLog.read() narrowed to one stream keeps the other stream's later bytes", () => {
  const log = logOf(100, ["stdout", "abc"], ["stderr", "DEF"], ["stdout", "gh"], ["stderr", "IJ"]);
  const stdout = log.read({ startSeq: 1, maxBytes: 100, streams: "stdout" });
  assert.deepEqual(stdout, {
    stdout: "abcgh",
    stderr: "",
    startSeq: 1,
    nextSeq: 9,
    capped: false,
    evicted: false,
  });
  const rest = log.read({ startSeq: stdout.nextSeq, maxBytes: 100 });
  assert.deepEqual([rest.stdout, rest.stderr, rest.startSeq, rest.nextSeq], ["", "IJ", 9, 11]);
});

Deno.test("OutputLog.read() narrowed and capped ends after the last taken byte", () => {
  const log = logOf(100, ["stdout", "ab"], ["stderr", "XYZ"], ["stdout", "cd"]);
  const page = log.read({ startSeq: 1, maxBytes: 3, streams: "stdout" });
  assert.deepEqual([page.stdout, page.startSeq, page.nextSeq, page.capped], ["abc", 1, 7, true]);
});

Deno.test("OutputLog decodes what Utf8Normalizer appends", async (t) => {
  await t.step("a character split across appends", () => {
    const log = new OutputLog({ capacityBytes: 100 });
    const normalizer = new Utf8Normalizer();
    const bytes = encode("x€y");
    for (const byte of bytes) log.append("stdout", normalizer.push(new Uint8Array([byte])));
    log.append("stdout", normalizer.flush());
    assert.equal(log.latestSeq, 6);
    const page = log.read({ startSeq: 1, maxBytes: 2 });
    assert.deepEqual([page.stdout, page.nextSeq, page.capped], ["x", 2, true]);
    assert.equal(log.read({ startSeq: 2, maxBytes: 100 }).stdout, "€y");
  });
  await t.step("invalid bytes become U+FFFD, three bytes each", () => {
    const log = new OutputLog({ capacityBytes: 100 });
    const normalizer = new Utf8Normalizer();
    log.append("stderr", normalizer.push(new Uint8Array([0x61, 0xff, 0xe2, 0x82])));
    log.append("stderr", normalizer.flush());
    assert.equal(log.latestSeq, 8);
    assert.equal(log.bytesCaptured("stderr"), 7);
    assert.equal(log.read({ startSeq: 1, maxBytes: 100 }).stderr, "a\uFFFD\uFFFD");
  });
  await t.step("a byte order mark is kept", () => {
    const log = logOf(100, ["stdout", "\uFEFFhi"]);
    assert.equal(log.read({ startSeq: 1, maxBytes: 100 }).stdout, "\uFEFFhi");
  });
});

Deno.test("OutputLog.read() rejects invalid numbers", async (t) => {
  const log = new OutputLog({ capacityBytes: 4 });
  const cases: [string, number, number, RegExp][] = [
    ["negative budget", 1, -1, /maxBytes must be an integer >= 0: received -1/],
    ["fractional budget", 1, 1.5, /maxBytes must be an integer >= 0/],
    ["NaN start", NaN, 1, /startSeq must be an integer: received NaN/],
    ["fractional start", 1.5, 1, /startSeq must be an integer/],
  ];
  for (const [name, startSeq, maxBytes, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => log.read({ startSeq, maxBytes }), { name: "RangeError", message });
    });
  }
});

Deno.test("OutputLog paging in small steps returns exactly what one big read returns", () => {
  const append = fc.record({
    stream: fc.constantFrom<StreamName>("stdout", "stderr"),
    text: fc.string({ unit: "binary", maxLength: 12 }),
  });
  fc.assert(
    fc.property(
      fc.array(append, { maxLength: 30 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 1, max: 9 }),
      fc.constantFrom<StreamSelection>("both", "stdout", "stderr"),
      (appends, capacityBytes, maxBytes, streams) => {
        const log = new OutputLog({ capacityBytes });
        for (const { stream, text } of appends) log.append(stream, encode(text));
        const whole = log.read({ startSeq: 1, maxBytes: Infinity, streams });
        assert.equal(whole.capped, false);
        const texts = { stdout: "", stderr: "" };
        let cursor = 1;
        let first: number | null = null;
        for (let pages = 0; pages <= log.latestSeq; pages++) {
          const page = log.read({ startSeq: cursor, maxBytes, streams });
          const pageBytes = encode(page.stdout).length + encode(page.stderr).length;
          assert.ok(pageBytes <= Math.max(maxBytes, 4), "budget exceeded by more than a char");
          assert.ok(page.nextSeq >= cursor && page.nextSeq <= log.latestSeq);
          assert.ok(page.startSeq >= cursor && page.startSeq <= page.nextSeq);
          if (pageBytes > 0) first ??= page.startSeq;
          texts.stdout += page.stdout;
          texts.stderr += page.stderr;
          if (!page.capped) break;
          assert.ok(page.nextSeq > cursor, "a capped page made no progress");
          cursor = page.nextSeq;
        }
        assert.deepEqual(texts, { stdout: whole.stdout, stderr: whole.stderr });
        assert.equal(first ?? whole.startSeq, whole.startSeq);
      },
    ),
    { seed: SEED },
  );
});

Deno.test("OutputLog.tailStart() follows the contract's examples", async (t) => {
  const cases: [string, [StreamName, string][], number, number, StreamSelection, string, string][] =
    [
      [
        "byte clamp moves past a split character",
        [["stdout", "aa€bb\n"]],
        1,
        5,
        "both",
        "bb\n",
        "",
      ],
      ["last line without a newline", [["stdout", "alpha\nbeta"]], 1, 100, "both", "beta", ""],
      [
        "newest bytes win over lines",
        [["stdout", "aaaa\nbbbb\ncccc\n"]],
        3,
        5,
        "both",
        "cccc\n",
        "",
      ],
      [
        "lines counted across both streams",
        [["stdout", "out1\n"], ["stderr", "err1\n"], ["stdout", "out2\n"]],
        2,
        100,
        "both",
        "out2\n",
        "err1\n",
      ],
    ];
  for (const [name, appends, lines, maxBytes, streams, stdout, stderr] of cases) {
    await t.step(name, () => {
      const log = logOf(100, ...appends);
      const start = log.tailStart({ lines, maxBytes, streams });
      assert.deepEqual(textFrom(log, start, streams), { stdout, stderr });
    });
  }
});

Deno.test("OutputLog.tailStart() counts lines like tail -n", async (t) => {
  const cases: [string, string, number, string][] = [
    ["a single trailing newline does not count", "a\nb\n", 1, "b\n"],
    ["two lines with a trailing newline", "a\nb\nc\n", 2, "b\nc\n"],
    ["an empty last line counts", "a\nb\n\n", 1, "\n"],
    ["only a newline", "\n", 1, "\n"],
    ["fewer lines than asked", "a\nb", 5, "a\nb"],
    ["exactly as many lines", "a\nb\n", 2, "a\nb\n"],
  ];
  for (const [name, text, lines, expected] of cases) {
    await t.step(name, () => {
      const log = logOf(100, ["stdout", text]);
      const start = log.tailStart({ lines, maxBytes: 100 });
      assert.equal(textFrom(log, start).stdout, expected);
    });
  }
});

Deno.test("OutputLog.tailStart() with fewer lines starts at the oldest retained byte", () => {
  assert.equal(logOf(100, ["stdout", "a\nb"]).tailStart({ lines: 5, maxBytes: 100 }), 1);
  const evicted = logOf(4, ["stdout", "abcdef"], ["stderr", "x\ny"]);
  assert.equal(evicted.tailStart({ lines: 5, maxBytes: 100 }), 3);
  assert.equal(evicted.tailStart({ lines: 5, maxBytes: 100, streams: "stderr" }), 7);
});

Deno.test("OutputLog.tailStart() with no retained data starts at latestSeq", () => {
  assert.equal(new OutputLog({ capacityBytes: 4 }).tailStart({ lines: 1, maxBytes: 10 }), 1);
  const evicted = logOf(2, ["stdout", "€"]);
  assert.equal(evicted.tailStart({ lines: 1, maxBytes: 10 }), 4);
  const other = logOf(100, ["stdout", "abc"]);
  assert.equal(other.tailStart({ lines: 1, maxBytes: 10, streams: "stderr" }), 4);
});

Deno.test("OutputLog.tailStart() byte clamp ignores the other stream's gaps", async (t) => {
  // stdout "aaaa\n" 1-5, stderr "XXXXXXXXXX\n" 6-16, stdout "bbbb\n" 17-21.
  const log = logOf(100, ["stdout", "aaaa\n"], ["stderr", "XXXXXXXXXX\n"], ["stdout", "bbbb\n"]);
  const cases: [number, number, StreamSelection, string, string][] = [
    [2, 10, "stdout", "aaaa\nbbbb\n", ""],
    [2, 9, "stdout", "aaa\nbbbb\n", ""],
    [1, 100, "stderr", "", "XXXXXXXXXX\n"],
    [2, 100, "both", "bbbb\n", "XXXXXXXXXX\n"],
    [2, 7, "both", "bbbb\n", "X\n"],
  ];
  for (const [lines, maxBytes, streams, stdout, stderr] of cases) {
    await t.step(`tail ${lines}, max ${maxBytes}, ${streams}`, () => {
      const start = log.tailStart({ lines, maxBytes, streams });
      assert.deepEqual(textFrom(log, start, streams), { stdout, stderr });
    });
  }
});

Deno.test("OutputLog.tailStart() with a zero byte budget returns nothing", () => {
  const log = logOf(100, ["stdout", "a\nb\n"], ["stderr", "c"]);
  assert.equal(log.tailStart({ lines: 1, maxBytes: 0 }), 6);
  assert.equal(log.tailStart({ lines: 1, maxBytes: 0, streams: "stdout" }), 5);
});

Deno.test("OutputLog.tailStart() rejects invalid counts", async (t) => {
  const log = new OutputLog({ capacityBytes: 4 });
  const cases: [number, number, RegExp][] = [
    [0, 10, /lines must be an integer >= 1: received 0/],
    [-2, 10, /lines must be an integer >= 1/],
    [1, -1, /maxBytes must be an integer >= 0/],
  ];
  for (const [lines, maxBytes, message] of cases) {
    await t.step(`lines ${lines}, max ${maxBytes}`, () => {
      assert.throws(() => log.tailStart({ lines, maxBytes }), { name: "RangeError", message });
    });
  }
});

Deno.test("OutputLog.newestStart() keeps at most maxBytes newest bytes", async (t) => {
  // stdout "a€" 1-4, stderr "XY" 5-6, stdout "€" 7-9, stdout "b" 10.
  const log = logOf(100, ["stdout", "a€"], ["stderr", "XY"], ["stdout", "€"], ["stdout", "b"]);
  const cases: [number, StreamSelection, number][] = [
    [0, "both", 11],
    [1, "both", 10],
    [2, "both", 10],
    [3, "both", 10],
    [4, "both", 7],
    [5, "both", 6],
    [100, "both", 1],
    [4, "stdout", 7],
    [5, "stdout", 7],
    [7, "stdout", 2],
    [8, "stdout", 1],
    [1, "stderr", 6],
    [0, "stderr", 7],
  ];
  for (const [maxBytes, streams, expected] of cases) {
    await t.step(`max ${maxBytes}, ${streams}`, () => {
      assert.equal(log.newestStart({ maxBytes, streams }), expected);
    });
  }
  await t.step("a lone character larger than the budget", () => {
    assert.equal(logOf(100, ["stdout", "€"]).newestStart({ maxBytes: 2 }), 4);
  });
  await t.step("no retained data", () => {
    assert.equal(logOf(2, ["stdout", "€"]).newestStart({ maxBytes: 2 }), 4);
  });
  await t.step("everything fits: the oldest retained byte", () => {
    assert.equal(logOf(3, ["stdout", "abcd"]).newestStart({ maxBytes: 10 }), 2);
  });
});
