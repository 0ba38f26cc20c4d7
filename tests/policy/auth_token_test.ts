import assert from "node:assert/strict";
import { authTokenSecrets, childEnvironment } from "../../src/policy/auth_token.ts";
import { redactText } from "../../src/policy/redaction.ts";

Deno.test("childEnvironment drops the auth token variable and nothing else", () => {
  const env = { PATH: "/bin", YIELDSHELL_AUTH_TOKEN: "t".repeat(32), YIELDSHELL_PORT: "1" };
  assert.deepEqual(childEnvironment(env), { PATH: "/bin", YIELDSHELL_PORT: "1" });
  assert.equal(env.YIELDSHELL_AUTH_TOKEN, "t".repeat(32), "the server's own copy is untouched");
});

Deno.test("authTokenSecrets redacts the token under its variable's name", () => {
  assert.deepEqual(authTokenSecrets(null), []);
  const token = "0123456789abcdef0123";
  assert.equal(
    redactText(`a ${token} b`, authTokenSecrets(token)),
    "a [REDACTED:YIELDSHELL_AUTH_TOKEN] b",
  );
});
