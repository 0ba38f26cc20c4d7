/** Issue 12 item 5: over HTTP, no session can take the whole process limit. */
import assert from "node:assert/strict";
import { connectHttp, type HttpSession, startHttpServer } from "./http_harness.ts";

/** Starts a background `sleep` in `session`; the payload of the answer. */
async function startSleep(session: HttpSession) {
  const { payload } = await session.call("execute", {
    command: "sleep 1000",
    side_effects: ["NONE"],
    yield_ms: 0,
  });
  return payload;
}

async function stopAll(session: HttpSession, ids: string[]): Promise<void> {
  for (const id of ids) await session.call("stop", { execution_id: id, signal: "SIGKILL" });
}

Deno.test("a session holds at most a fair share of max_processes: half, by default", async () => {
  await using server = await startHttpServer({ args: ["--max-processes", "4"] });
  await using sessionA = await connectHttp(server.url);
  await using sessionB = await connectHttp(server.url);
  const idsA: string[] = [];
  const idsB: string[] = [];
  try {
    for (let i = 0; i < 2; i++) idsA.push((await startSleep(sessionA)).execution_id);
    const refused = await startSleep(sessionA);
    assert.equal(refused.status, "failed_to_start");
    assert.equal(
      refused.error,
      "Session process limit (2) reached: this session already has 2 live executions; wait " +
        "for one to end or stop one (max_processes_per_session)",
    );
    // Session A is at its share: session B still gets the rest.
    for (let i = 0; i < 2; i++) {
      const started = await startSleep(sessionB);
      assert.equal(started.status, "backgrounded", JSON.stringify(started));
      idsB.push(started.execution_id);
    }
    assert.equal((await startSleep(sessionB)).status, "failed_to_start");
    // A share comes back as its executions end.
    await stopAll(sessionA, idsA.splice(0, 1));
    const again = await startSleep(sessionA);
    assert.equal(again.status, "backgrounded", JSON.stringify(again));
    idsA.push(again.execution_id);
  } finally {
    await stopAll(sessionA, idsA);
    await stopAll(sessionB, idsB);
  }
});

Deno.test("max_processes_per_session sets the share; max_processes still caps the total", async () => {
  await using server = await startHttpServer({
    args: ["--max-processes", "4"],
    env: { YIELDSHELL_MAX_PROCESSES_PER_SESSION: "3" },
  });
  await using sessionA = await connectHttp(server.url);
  await using sessionB = await connectHttp(server.url);
  const idsA: string[] = [];
  const idsB: string[] = [];
  try {
    for (let i = 0; i < 3; i++) idsA.push((await startSleep(sessionA)).execution_id);
    assert.match((await startSleep(sessionA)).error, /^Session process limit \(3\) reached/);
    idsB.push((await startSleep(sessionB)).execution_id);
    assert.equal((await startSleep(sessionB)).error, "Maximum process limit (4) reached");
  } finally {
    await stopAll(sessionA, idsA);
    await stopAll(sessionB, idsB);
  }
});
