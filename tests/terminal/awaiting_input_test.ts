import assert from "node:assert/strict";
import { detectAwaitingInput, isSecretInput } from "../../src/terminal/awaiting_input.ts";

Deno.test("awaiting input: password, prompt, keys, or not", async (t) => {
  const base = { echo: true, canonical: true, idleMs: 0, cursorLine: "" };
  const table: [string, Partial<typeof base>, ReturnType<typeof detectAwaitingInput>][] = [
    ["echo off in line mode is a password prompt at once", { echo: false }, {
      awaiting: true,
      reason: "password",
    }],
    ["busy output is not waiting", { idleMs: 10, cursorLine: "Name: " }, { awaiting: false }],
    ["quiet with the cursor after text is a prompt", { idleMs: 600, cursorLine: "Name: " }, {
      awaiting: true,
      reason: "prompt",
    }],
    ["a readline prompt (raw mode, echo off) is a prompt, not a password", {
      echo: false,
      canonical: false,
      idleMs: 600,
      cursorLine: ">>> ",
    }, { awaiting: true, reason: "prompt" }],
    ["quiet in raw mode with an empty cursor row waits for keys", {
      echo: false,
      canonical: false,
      idleMs: 600,
    }, { awaiting: true, reason: "keys" }],
    ["quiet in line mode at column 0 is just quiet (sleep)", { idleMs: 60_000 }, {
      awaiting: false,
    }],
    ["whitespace alone is not a prompt", { idleMs: 600, cursorLine: "   " }, { awaiting: false }],
  ];
  for (const [name, change, expected] of table) {
    await t.step(
      name,
      () => assert.deepEqual(detectAwaitingInput({ ...base, ...change }), expected),
    );
  }
  assert.deepEqual(
    detectAwaitingInput({ ...base, idleMs: 100, cursorLine: "$ ", promptIdleMs: 50 }),
    { awaiting: true, reason: "prompt" },
  );
});

Deno.test("only echo off in line mode makes typed text secret", () => {
  assert.equal(isSecretInput({ echo: false, canonical: true }), true);
  assert.equal(isSecretInput({ echo: false, canonical: false }), false);
  assert.equal(isSecretInput({ echo: true, canonical: true }), false);
});
