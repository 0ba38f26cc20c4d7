import assert from "node:assert/strict";
import {
  invalidSignalMessage,
  normalizeSignalName,
  pythonRepr,
  SIGNAL_NAMES,
} from "../../src/policy/signals.ts";

Deno.test("normalizeSignalName", async (t) => {
  const cases: [string, string | null][] = [
    ["term", "SIGTERM"],
    ["TERM", "SIGTERM"],
    ["sigint", "SIGINT"],
    ["HUP", "SIGHUP"],
    ["SIGKILL", "SIGKILL"],
    ["SigUsr1", "SIGUSR1"],
    ["winch", "SIGWINCH"],
    ["SIGIOT", "SIGABRT"],
    ["poll", "SIGIO"],
    ["SIGCLD", "SIGCHLD"],
    ["9", null],
    ["SIG9", null],
    ["-9", null],
    ["", null],
    ["SIG", null],
    ["SIGFOO", null],
    [" TERM", null],
    ["TERM ", null],
    ["SIGRTMIN", null],
  ];
  for (const [raw, expected] of cases) {
    await t.step(JSON.stringify(raw), () => assert.equal(normalizeSignalName(raw), expected));
  }
  await t.step("every canonical name maps to itself", () => {
    for (const name of SIGNAL_NAMES) assert.equal(normalizeSignalName(name), name);
  });
});

Deno.test("invalidSignalMessage", async (t) => {
  const cases: [string, string][] = [
    ["SIGFOO", "Invalid signal: 'SIGFOO'"],
    ["9", "Invalid signal: '9'"],
    ["it's", `Invalid signal: "it's"`],
    ["", "Invalid signal: ''"],
  ];
  for (const [raw, expected] of cases) {
    await t.step(JSON.stringify(raw), () => assert.equal(invalidSignalMessage(raw), expected));
  }
});

Deno.test("pythonRepr", async (t) => {
  const cases: [string, string][] = [
    ["abc", "'abc'"],
    ["", "''"],
    ["it's", `"it's"`],
    [`say "hi"`, `'say "hi"'`],
    [`it's "x"`, `'it\\'s "x"'`],
    ["a\\b", "'a\\\\b'"],
    ["a\nb\tc\rd", "'a\\nb\\tc\\rd'"],
    ["\x00\x1b\x7f", "'\\x00\\x1b\\x7f'"],
    ["\u00a0", "'\\xa0'"],
    ["\u200b", "'\\u200b'"],
    ["\u{e0001}", "'\\U000e0001'"],
    ["\ud800", "'\\ud800'"],
    ["café 日本 😀", "'café 日本 😀'"],
    [" ", "' '"],
  ];
  for (const [raw, expected] of cases) {
    await t.step(JSON.stringify(raw), () => assert.equal(pythonRepr(raw), expected));
  }
});
