import assert from "node:assert/strict";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { startServer } from "./harness.ts";
import { posix } from "../os.ts";

const NONE = ["NONE"];
/** Above setTimeout's 2^31-1 ms, which would otherwise fire at once. */
const HUGE_MS = 3_000_000_000;
/** Long enough that a timer firing at once would end it first. */
const COMMAND = "sleep 0.3; echo finished";

posix.test("execute timeout_ms above 2^31-1 does not time out early", async () => {
  await using s = await startServer();
  const { payload } = await s.call("execute", {
    command: COMMAND,
    side_effects: NONE,
    timeout_ms: HUGE_MS,
  });
  assert.equal(payload.status, "completed");
  assert.equal(payload.exit_code, 0);
  assert.equal(payload.stdout, "finished\n");
  assert.doesNotMatch(s.stderr(), /TimeoutOverflow/);
});

posix.test("--timeout-ms above 2^31-1 does not time out every command", async () => {
  await using s = await startServer({ args: ["--timeout-ms", String(HUGE_MS)] });
  const { payload } = await s.call("execute", { command: COMMAND, side_effects: NONE });
  assert.equal(payload.status, "completed");
  assert.equal(payload.stdout, "finished\n");
});

posix.test("--keepalive-interval-ms above 2^31-1 sends no flood of progress", async () => {
  await using s = await startServer({ args: ["--keepalive-interval-ms", String(HUGE_MS)] });
  const notes: Progress[] = [];
  const result = await s.client.callTool(
    { name: "execute", arguments: { command: COMMAND, side_effects: NONE } },
    undefined,
    { onprogress: (note: Progress) => notes.push(note) },
  );
  assert.equal((result.structuredContent as { status: string }).status, "completed");
  assert.equal(notes.length, 0, "the first notification is due in about 35 days");
});
