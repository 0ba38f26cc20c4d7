import assert from "node:assert/strict";
import { redactText } from "../../src/policy/redaction.ts";
import { SecretInputs } from "../../src/terminal/secret_inputs.ts";

Deno.test("text typed with echo off is recorded as a secret, per line, without the Enter", () => {
  const inputs = new SecretInputs();
  assert.equal(inputs.note("ls\r", { echo: true, canonical: true }), false);
  assert.equal(inputs.note("hunter22\r", { echo: false, canonical: true }), true);
  assert.equal(inputs.note("one\rtwo-longer\r\n", { echo: false, canonical: true }), true);
  assert.equal(inputs.note("hunter22\r", { echo: false, canonical: true }), true);
  assert.equal(inputs.note("print(1)\r", { echo: false, canonical: false }), false);
  assert.deepEqual(inputs.secrets, [
    { name: "TTY_INPUT", value: "two-longer" },
    { name: "TTY_INPUT", value: "hunter22" },
    { name: "TTY_INPUT", value: "one" },
  ]);
});

Deno.test("recorded secrets plug into the redaction policy", () => {
  const inputs = new SecretInputs();
  inputs.note("pa55word\r", { echo: false, canonical: true });
  assert.equal(
    redactText("echo pa55word > log", inputs.secrets),
    "echo [REDACTED:TTY_INPUT] > log",
  );
});
