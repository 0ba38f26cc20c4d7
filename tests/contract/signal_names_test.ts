import assert from "node:assert/strict";
import { pythonRepr } from "../../src/contract/python_repr.ts";
import { normalizeSignalName, SIGNAL_NAMES } from "../../src/contract/signal_names.ts";
import { invalidSignal } from "../../src/contract/texts.ts";
import { LINUX_SIGNALS } from "../../src/platform/signal_numbers.ts";

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

Deno.test("invalidSignal quotes the raw name as the contract does and says what to pass", async (t) => {
  const cases: [string, string][] = [
    ["SIGFOO", "Invalid signal: 'SIGFOO'"],
    ["9", "Invalid signal: '9'"],
    ["it's", `Invalid signal: "it's"`],
    ["", "Invalid signal: ''"],
  ];
  for (const [raw, expected] of cases) {
    await t.step(JSON.stringify(raw), () => {
      assert.equal(
        invalidSignal(raw),
        `${expected}; pass a signal name such as SIGTERM, SIGINT or SIGKILL`,
      );
    });
  }
});

Deno.test("the names stop accepts are exactly the names Linux numbers", () => {
  assert.deepEqual(Object.keys(LINUX_SIGNALS).sort(), [...SIGNAL_NAMES].sort());
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
