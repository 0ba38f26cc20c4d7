/**
 * Processes per execution: a background `sleep 30` is the sleep itself, with no shell waiting
 * above it, and the server's whole tree holds only the server, its guardian and at most one
 * standby besides the commands.
 */
import assert from "node:assert/strict";
import { eventually, isAlive, startServer, waitForExit } from "./harness.ts";
import { linux, ON_LINUX } from "../os.ts";

const NONE = ["NONE"];
const SLEEPS = 5;

function read(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

/** Names of the live processes below `root` (root included), by /proc. */
function treeOf(root: number): { pid: number; name: string }[] {
  const parents = new Map<number, number>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = read(`/proc/${entry.name}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields.length > 1 && fields[0] !== "Z") parents.set(Number(entry.name), Number(fields[1]));
  }
  const members = [root];
  for (let index = 0; index < members.length; index++) {
    for (const [pid, parent] of parents) if (parent === members[index]) members.push(pid);
  }
  return members.map((pid) => ({ pid, name: read(`/proc/${pid}/comm`).trim() }));
}

linux.test("background simple commands run with no shell above them: 3 helper processes at most", async () => {
  await using s = await startServer();
  const ids: string[] = [];
  try {
    for (let index = 0; index < SLEEPS; index++) {
      const { payload } = await s.call("execute", {
        command: "sleep 30",
        side_effects: NONE,
        yield_ms: 0,
      });
      assert.equal(payload.status, "backgrounded");
      ids.push(payload.execution_id);
      const comm = () => read(`/proc/${payload.process_id}/comm`).trim();
      // The shell replaces itself with sleep right after starting.
      await eventually(() => comm() === "sleep", 10_000, `pid ${payload.process_id} to be sleep`);
    }
    await eventually(
      () => treeOf(s.pid).filter((p) => p.name === "sleep").length === SLEEPS,
      10_000,
      "the sleeps",
    );
    const helpers = treeOf(s.pid).filter((p) => p.name !== "sleep");
    // The server, its guardian, and the standby for the next execute.
    assert.ok(helpers.length <= 3, JSON.stringify(helpers));
    // A compound command keeps its shell, which waits for the last part.
    const { payload } = await s.call("execute", {
      command: "sleep 30; true",
      side_effects: NONE,
      yield_ms: 0,
    });
    ids.push(payload.execution_id);
    await eventually(
      () => treeOf(payload.process_id).map((p) => p.name).join(" ") === "sh sleep",
      10_000,
      "a shell waiting on its sleep",
    );
  } finally {
    for (const id of ids) await s.call("stop", { execution_id: id, signal: "SIGKILL" });
  }
});

/** The server's idle standby: its child waiting in the launcher, if any. */
function idleStandby(server: number): number | null {
  for (const { pid } of treeOf(server)) {
    if (read(`/proc/${pid}/cmdline`).includes("_ys_standby_lines")) return pid;
  }
  return null;
}

/** The standby serves dash only (see src/platform/standby.ts). */
const DASH = ON_LINUX && /(^|\/)dash$/.test(Deno.realPathSync("/bin/sh"));

Deno.test({
  name: "after an answer, the next execute starts in the standby the server prepared meanwhile",
  ignore: !DASH,
  fn: nextExecuteUsesTheStandby,
});

async function nextExecuteUsesTheStandby() {
  await using s = await startServer();
  await s.call("execute", { command: "echo warm", side_effects: NONE });
  await eventually(() => idleStandby(s.pid) !== null, 10_000, "the standby");
  const standby = idleStandby(s.pid);
  const { payload } = await s.call("execute", { command: "echo $$", side_effects: NONE });
  assert.equal(payload.stdout, `${standby}\n`);
  assert.equal(payload.process_id, standby);
}

Deno.test({
  name:
    "a server killed with SIGKILL: the guardian stops what its standby started, and the idle one",
  ignore: !DASH,
  fn: standbyExecutionsAreGuarded,
});

async function standbyExecutionsAreGuarded() {
  const s = await startServer();
  try {
    await s.call("execute", { command: "echo warm", side_effects: NONE });
    await eventually(() => idleStandby(s.pid) !== null, 10_000, "the standby");
    const served = idleStandby(s.pid)!;
    // A compound command keeps its shell; its sleep is a second member of the group.
    const { payload } = await s.call("execute", {
      command: "sleep 60; true",
      side_effects: NONE,
      yield_ms: 0,
    });
    assert.equal(payload.process_id, served);
    await eventually(() => idleStandby(s.pid) !== null, 10_000, "the next standby");
    const idle = idleStandby(s.pid)!;
    const sleeps = () => treeOf(served).filter((p) => p.name === "sleep").map((p) => p.pid);
    await eventually(() => sleeps().length === 1, 10_000, "the sleep");
    const [sleep] = sleeps();
    Deno.kill(s.pid, "SIGKILL");
    await waitForExit(s.pid);
    await eventually(
      () => !isAlive(sleep) && !isAlive(served) && !isAlive(idle),
      10_000,
      "the guardian to stop the group, and the idle standby to end",
    );
  } finally {
    await s[Symbol.asyncDispose]();
  }
}
