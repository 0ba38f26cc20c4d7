import assert from "node:assert/strict";
import { truncateOutput } from "../../../src/core/tab_shell/truncate_output.ts";

const whole = (text: string) => ({ text, lostFront: false });
const M = "[...truncated]";

Deno.test("truncateOutput follows tab-shell-mcp's worked examples", async (t) => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const cases: [string, string, string, number, "head" | "tail", string, string][] = [
    ["tail keeps the end", alphabet, "", 20, "tail", `${M}UVWXYZ`, ""],
    ["head keeps the beginning", alphabet, "", 20, "head", `ABCDEF${M}`, ""],
    [
      "a 1001-character line",
      `${"x".repeat(1000)}\n`,
      "",
      100,
      "tail",
      `${M}${"x".repeat(85)}\n`,
      "",
    ],
    [
      "stderr fits beside stdout",
      "a".repeat(10),
      "b".repeat(100),
      60,
      "tail",
      "a".repeat(10),
      `${M}${"b".repeat(36)}`,
    ],
    [
      "stderr is guaranteed a third",
      "a".repeat(50),
      "b".repeat(100),
      60,
      "tail",
      `${M}${"a".repeat(26)}`,
      `${M}${"b".repeat(6)}`,
    ],
  ];
  for (const [name, stdout, stderr, max, mode, out, err] of cases) {
    await t.step(name, () => {
      const result = truncateOutput(whole(stdout), whole(stderr), max, mode);
      assert.deepEqual(result, { stdout: out, stderr: err, truncated: true });
      assert.ok([...result.stdout].length + [...result.stderr].length <= max);
    });
  }
});

Deno.test("output that fits is returned unchanged and not truncated", () => {
  assert.deepEqual(truncateOutput(whole("abc"), whole("de"), 5, "head"), {
    stdout: "abc",
    stderr: "de",
    truncated: false,
  });
});

Deno.test("a budget too small for the marker keeps plain text, not a marker fragment", () => {
  // tab-shell-mcp returned "[...trunca" here (its defect 13).
  const cut = truncateOutput(whole("a".repeat(30)), whole("b".repeat(30)), 30, "tail");
  assert.deepEqual(cut, { stdout: `${M}aaaaaa`, stderr: "b".repeat(10), truncated: true });
  const tiny = truncateOutput(whole("abcdefghij"), whole("klmnopqrst"), 5, "head");
  assert.deepEqual(tiny, { stdout: "abcd", stderr: "k", truncated: true });
});

Deno.test("lengths count characters, not bytes or UTF-16 units", () => {
  const emoji = "😀".repeat(30); // 4 bytes and 2 UTF-16 units each
  const tail = truncateOutput(whole(emoji), whole(""), 20, "tail");
  assert.equal(tail.stdout, `${M}${"😀".repeat(6)}`);
  assert.equal([...tail.stdout].length, 20);
  const head = truncateOutput(whole(`é${"ü".repeat(28)}`), whole(""), 20, "head");
  assert.equal(head.stdout, `é${"ü".repeat(5)}${M}`);
  const fits = truncateOutput(whole("😀".repeat(20)), whole(""), 20, "head");
  assert.equal(fits.truncated, false, "20 characters fit 20 although they are 40 UTF-16 units");
});

Deno.test("a stream whose oldest part was evicted is never reported whole", () => {
  const lost = { text: "0123456789".repeat(10), lostFront: true };
  const tail = truncateOutput(lost, whole("err"), 50, "tail");
  assert.equal(tail.truncated, true);
  assert.equal(tail.stdout, `${M}${"0123456789".repeat(10).slice(-(50 - 3 - 14))}`);
  assert.equal(tail.stderr, "err");
  const head = truncateOutput(lost, whole(""), 50, "head");
  assert.equal(head.stdout, `${M}${"0123456789".repeat(10).slice(0, 50 - 28)}${M}`);
});
