/**
 * The standby and exec in place as a client sees them: the standby is no execution (not in ps,
 * not counted by max_processes, ended at shutdown), a terminal never takes it, and a lone
 * simple command run in place of its shell reports what the same command under a shell does.
 */
import assert from "node:assert/strict";
import { eventually, isAlive, type Session, startServer } from "./harness.ts";
import { ON_LINUX } from "../os.ts";

const NONE = ["NONE"];

/** The standby serves dash only (see src/platform/standby.ts). */
const DASH = ON_LINUX && /(^|\/)dash$/.test(Deno.realPathSync("/bin/sh"));

function read(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

/** The server's idle standby: its child whose argv holds the launcher, if any. */
function idleStandby(server: number): number | null {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = read(`/proc/${entry.name}/stat`);
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (parent === server && read(`/proc/${entry.name}/cmdline`).includes("_ys_standby_lines")) {
      return Number(entry.name);
    }
  }
  return null;
}

async function standbyAfterAnswer(s: Session): Promise<number> {
  await eventually(() => idleStandby(s.pid) !== null, 10_000, "the standby");
  return idleStandby(s.pid)!;
}

Deno.test({
  name: "the standby is no execution: not in ps, not counted by max_processes, ended at shutdown",
  ignore: !DASH,
  async fn() {
    const s = await startServer({ args: ["--max-processes", "1"] });
    try {
      await s.call("execute", { command: "echo warm", side_effects: NONE });
      const served = await standbyAfterAnswer(s);
      const sleep = await s.call("execute", {
        command: "sleep 30",
        side_effects: NONE,
        yield_ms: 0,
      });
      assert.equal(sleep.payload.status, "backgrounded", sleep.text);
      assert.equal(sleep.payload.process_id, served);
      const idle = await standbyAfterAnswer(s);
      const ps = await s.call("ps", {});
      assert.deepEqual(
        ps.payload.executions.map((e: { command: string }) => e.command).sort(),
        ["echo warm", "sleep 30"],
        "the two executions, their commands as given (no exec prefix), and no standby",
      );
      // The one process the limit allows is the sleep; the idle standby takes none.
      const refused = await s.call("execute", { command: "true", side_effects: NONE });
      assert.equal(refused.isError, true);
      await s.call("stop", { execution_id: sleep.payload.execution_id });
      assert.equal(
        (await s.call("execute", { command: "true", side_effects: NONE })).isError,
        false,
      );
      await s.close();
      await eventually(() => !isAlive(idle) && !isAlive(served), 10_000, "nothing left");
    } finally {
      await s[Symbol.asyncDispose]();
    }
  },
});

Deno.test({
  name: "a terminal execution never takes the standby, which stays idle for the next pipe start",
  ignore: !DASH,
  async fn() {
    await using s = await startServer({ permissionSet: "tty" });
    await s.call("execute", { command: "echo warm", side_effects: NONE });
    const idle = await standbyAfterAnswer(s);
    const tty = await s.call("execute", { command: "echo $$", side_effects: NONE, tty: true });
    assert.notEqual(tty.payload.process_id, idle);
    assert.equal(idleStandby(s.pid), idle);
    const pipe = await s.call("execute", { command: "echo $$", side_effects: NONE });
    assert.equal(pipe.payload.stdout, `${idle}\n`);
  },
});

Deno.test({
  name: "a lone simple command run in place reports the exit and signal a shell above it would",
  ignore: !ON_LINUX,
  async fn() {
    await using s = await startServer();
    const result = async (command: string) => {
      const { payload } = await s.call("execute", { command, side_effects: NONE });
      return { exit: payload.exit_code, signal: payload.signal, stderr: payload.stderr };
    };
    const missing = "ls /nonexistent-yieldshell-dir";
    assert.deepEqual(await result(missing), await result(`${missing}; exit $?`));
    const stopped = async (command: string) => {
      const started = await s.call("execute", { command, side_effects: NONE, yield_ms: 0 });
      const id = started.payload.execution_id;
      await s.call("stop", { execution_id: id, signal: "SIGINT" });
      const { payload } = await s.call("wait", { execution_id: id });
      return { exit: payload.exit_code, signal: payload.signal, status: payload.status };
    };
    const alone = await stopped("sleep 30");
    assert.deepEqual(alone, { exit: -2, signal: "SIGINT", status: "stopped" });
    assert.deepEqual(alone, await stopped("sleep 30; true"));
  },
});
