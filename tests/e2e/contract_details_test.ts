import assert from "node:assert/strict";
import { startServer } from "./harness.ts";
import { linux, posix } from "../os.ts";

const NONE = ["NONE"];

posix.test("ps redacts secrets of the call's env overlay in name and command", async () => {
  await using s = await startServer({ env: { YIELDSHELL_REDACT_ENV_REGEX: "TOKEN" } });
  const secret = "overlay-secret-9";
  await s.call("execute", {
    command: `echo ${secret} >/dev/null`,
    side_effects: NONE,
    env: { OTHER_TOKEN: secret },
    name: `uses ${secret}`,
  });
  const [entry] = (await s.call("ps", {})).payload.executions;
  assert.equal(entry.name, "uses [REDACTED:OTHER_TOKEN]");
  assert.equal(entry.command, "echo [REDACTED:OTHER_TOKEN] >/dev/null");
  assert.doesNotMatch((await s.call("ps", {})).text, new RegExp(secret));
});

posix.test("stop of an execution that already ended is no error and reports its final status", async () => {
  await using s = await startServer();
  const { payload } = await s.call("execute", { command: "exit 4", side_effects: NONE });
  assert.equal(payload.status, "completed");
  const reply = await s.call("stop", { execution_id: payload.execution_id });
  assert.equal(reply.isError, false);
  assert.deepEqual(reply.payload, {
    execution_id: payload.execution_id,
    stopped: false,
    status: "completed",
    error: "Execution is not running (status: completed)",
  });
  const unknown = await s.call("stop", { execution_id: "nope" });
  assert.equal(unknown.isError, true);
});

// Linux: a macOS temp dir sits behind a symlink, so `pwd -P` would name /private/var/...
linux.test("allowed cwds without a default cwd under them default to the first root and say so", async () => {
  const root = await Deno.makeTempDir();
  try {
    await using s = await startServer({ env: { YIELDSHELL_ALLOWED_CWDS: root } });
    const { payload, isError } = await s.call("execute", { command: "pwd -P", side_effects: NONE });
    assert.equal(isError, false, payload.error);
    assert.equal(payload.stdout, `${root}\n`);
    assert.match(s.stderr(), /commands that pass no cwd run in .+, the first of them/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
