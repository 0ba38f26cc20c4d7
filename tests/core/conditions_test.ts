import assert from "node:assert/strict";
import { EXIT_ONLY, MAX_IDLE_MS, parseUntil } from "../../src/core/conditions.ts";

function error(raw: unknown): string {
  const decision = parseUntil(raw);
  assert.equal(decision.ok, false, `expected an error for ${JSON.stringify(raw)}`);
  return (decision as { error: string }).error;
}

function parsed(raw: unknown) {
  const decision = parseUntil(raw);
  if (!decision.ok) throw new Error(decision.error);
  return decision.conditions;
}

Deno.test("parseUntil: absent or empty means exit only", () => {
  assert.deepEqual(parsed(undefined), EXIT_ONLY);
  assert.deepEqual(parsed(null), EXIT_ONLY);
  assert.deepEqual(parsed({}), EXIT_ONLY);
});

Deno.test("parseUntil: each condition with its defaults", () => {
  assert.deepEqual(parsed({ output: "ready in \\d+ ms" }), {
    ...EXIT_ONLY,
    output: { source: "ready in \\d+ ms", flags: "mu", scope: "new" },
  });
  assert.deepEqual(
    parsed({ output: "error", streams: "stderr", scope: "all", ignore_case: true }).output,
    { source: "error", flags: "imu", scope: "all" },
  );
  assert.equal(parsed({ idle_ms: 2000 }).idleMs, 2000);
  assert.deepEqual(parsed({ port: 5173 }).port, { port: 5173, hosts: ["127.0.0.1", "::1"] });
  assert.deepEqual(parsed({ port: 8000, host: "[::1]" }).port, { port: 8000, hosts: ["::1"] });
  assert.deepEqual(parsed({ port: 8000, host: "127.0.0.1" }).port?.hosts, ["127.0.0.1"]);
  assert.equal(parsed({ bytes: 1 }).bytes, 1);
  assert.equal(parsed({ bytes: 4096, streams: "stdout" }).streams, "stdout");
  // Nulls count as absent (the tool schemas make fields nullable).
  assert.deepEqual(parsed({ output: null, port: null, host: null }), EXIT_ONLY);
});

Deno.test("parseUntil: clear errors before anything waits", async (t) => {
  const cases: [string, unknown, RegExp][] = [
    ["not an object", "ready", /^until must be an object such as \{"output": "listening"\}/],
    ["an array", [{ output: "x" }], /^until must be an object/],
    ["unknown condition", { regex: "x" }, /^Unknown until condition 'regex'; pass output, idle_ms/],
    [
      "invalid regex",
      { output: "(unclosed" },
      /^Cannot wait until output as the regex is invalid \(.*\); pass a JavaScript regular expression/,
    ],
    [
      "regex matching empty text",
      { output: "a*" },
      /matches empty text and would hold at once; pass a pattern that needs at least one character/,
    ],
    ["overlong regex", { output: "x".repeat(5000) }, /has 5000 characters; keep it under 4096$/],
    ["port 0", { port: 0 }, /^Invalid until\.port 0; pass an integer from 1 to 65535/],
    [
      "port out of range",
      { port: 70_000 },
      /^Invalid until\.port 70000; pass an integer from 1 to 65535/,
    ],
    ["fractional port", { port: 80.5 }, /^Invalid until\.port 80\.5/],
    [
      "non-loopback host",
      { port: 3000, host: "10.0.0.5" },
      /^Cannot wait until port 3000 on 10\.0\.0\.5 as only loopback addresses are probed; pass host "127\.0\.0\.1", "::1" or "localhost"/,
    ],
    [
      "0.0.0.0",
      { port: 3000, host: "0.0.0.0" },
      /a server bound to 0\.0\.0\.0 also accepts on 127\.0\.0\.1/,
    ],
    ["an inherited name as host", { port: 3000, host: "toString" }, /only loopback addresses/],
    [
      "host without port",
      { host: "127.0.0.1" },
      /^until\.host applies only to port; add port or remove host$/,
    ],
    [
      "streams without output or bytes",
      { streams: "stderr", idle_ms: 5 },
      /^until\.streams applies only to output or bytes/,
    ],
    [
      "scope without output",
      { scope: "all", bytes: 5 },
      /^until\.scope applies only to output; add output or remove scope$/,
    ],
    [
      "ignore_case without output",
      { ignore_case: true },
      /^until\.ignore_case applies only to output/,
    ],
    [
      "bad streams",
      { output: "x", streams: "stdin" },
      /^Invalid until\.streams "stdin"; pass "both", "stdout" or "stderr"$/,
    ],
    [
      "bad scope",
      { output: "x", scope: "old" },
      /^Invalid until\.scope "old"; pass "new" \(output you have not been shown yet\) or "all"/,
    ],
    ["idle_ms 0", { idle_ms: 0 }, /^Invalid until\.idle_ms 0; pass an integer from 1 to 86400000/],
    ["idle_ms beyond a day", { idle_ms: MAX_IDLE_MS + 1 }, /^Invalid until\.idle_ms/],
    ["bytes 0", { bytes: 0 }, /^Invalid until\.bytes 0; pass an integer from 1/],
  ];
  for (const [name, raw, expected] of cases) {
    await t.step(name, () => {
      const text = error(raw);
      assert.match(text, expected);
      assert.doesNotMatch(text, /\.$/, "errors end without a period");
    });
  }
});
