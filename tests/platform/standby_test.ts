/**
 * The standby (src/platform/standby.ts) through the POSIX port: an execution it serves is the
 * same process, with the same argv, session, group, cwd, environment and stdin, as one
 * spawned directly; it serves only exactly matching starts, and sweep ends it.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import type { ProcessControl, SpawnRequest } from "../../src/core/process.ts";
import { findSetsid } from "../../src/platform/find_program.ts";
import { createPosixControl } from "../../src/platform/posix.ts";
import { LINUX_SIGNALS } from "../../src/platform/signal_numbers.ts";
import { eventually, isAlive } from "../e2e/harness.ts";
import { ON_LINUX } from "../os.ts";
import { runTree } from "./run_tree.ts";
import { idleStandby, STANDBY_MARK_VARIABLE } from "./standby_probe.ts";

/** The standby needs Linux, util-linux setsid and /bin/sh being dash. */
const SUPPORTED = ON_LINUX && findSetsid() !== null &&
  /(^|\/)dash$/.test(Deno.realPathSync("/bin/sh"));
/** In this file's standbys' environment, so that another file's are not taken for them. */
const MARK = crypto.randomUUID();

function control(standby: boolean): ProcessControl {
  return createPosixControl({
    signals: LINUX_SIGNALS,
    containment: true,
    selfPid: Deno.pid,
    setsidPath: findSetsid(),
    standby,
  });
}

/** Asks `control` for its standby, as the manager does after each answer, and waits for it. */
async function idleStandbyAppears(control: ProcessControl): Promise<number> {
  control.prepareNext?.();
  await eventually(() => idleStandby(MARK) !== null, 10_000, "a standby to start");
  return idleStandby(MARK)!;
}

/** Everything the command can see of itself, the containment token left out. */
const SELF_PORTRAIT = [
  `tr '\\0' ' ' < /proc/$$/cmdline; echo`,
  `ps -o pid=,pgid=,sid= -p $$ | awk '{ print ($1 == $2 && $2 == $3) }'`,
  'pwd; echo "$0|$#|$-"',
  "env | grep -v '^_MCP_YIELDSHELL_EXECUTION_TOKEN=' | sort",
  "trap",
  "cat",
  "exit 3",
].join("\n");

function request(command: string, cwd: string, extra: Record<string, string> = {}): SpawnRequest {
  const env = { ...Deno.env.toObject(), [STANDBY_MARK_VARIABLE]: MARK, ...extra };
  return { shell: "/bin/sh", command, cwd, env, reusable: Object.keys(extra).length === 0 };
}

Deno.test({
  name: "an execution the standby serves is what a direct spawn gives",
  ignore: !SUPPORTED,
  async fn() {
    const cwd = Deno.makeTempDirSync();
    const direct = control(false);
    const warm = control(true);
    const hold = setInterval(() => {}, 60_000);
    try {
      const first = await runTree(warm.spawn(request("true", cwd)), "");
      assert.equal(first.exit.exitCode, 0);
      const pid = await idleStandbyAppears(warm);
      const served = warm.spawn(request(SELF_PORTRAIT, cwd));
      assert.equal(served.pid, pid, "the idle standby became the execution");
      const ours = await runTree(served, "line one\nline two");
      const theirs = await runTree(direct.spawn(request(SELF_PORTRAIT, cwd)), "line one\nline two");
      assert.deepEqual(ours, theirs);
      assert.match(ours.stdout, /^\/bin\/sh -c tr /);
      assert.match(ours.stdout, /\nline one\nline two$/);
      assert.deepEqual(ours.exit, { exitCode: 3, signal: null });
    } finally {
      await warm.sweep([], 1_000);
      clearInterval(hold);
      Deno.removeSync(cwd, { recursive: true });
    }
  },
});

Deno.test({
  name: "the standby carries any command text exactly and serves only a matching start",
  ignore: !SUPPORTED,
  async fn() {
    const cwd = Deno.makeTempDirSync();
    const warm = control(true);
    const direct = control(false);
    const hold = setInterval(() => {}, 60_000);
    const texts = [
      "printf '%s|' \"a  b\" '\\n' \\\\ ; echo",
      "  echo leading and trailing spaces  ",
      "echo one\n\necho three\n",
      "echo 'multi\nline' \"$HOME\"\t# comment",
      "echo é€😀",
    ];
    try {
      await runTree(warm.spawn(request("true", cwd)), "");
      for (const text of texts) {
        const pid = await idleStandbyAppears(warm);
        const tree = warm.spawn(request(text, cwd));
        assert.equal(tree.pid, pid, `served by the standby: ${JSON.stringify(text)}`);
        const { stdout } = await runTree(tree, "");
        const { stdout: expected } = await runTree(direct.spawn(request(text, cwd)), "");
        assert.equal(stdout, expected, JSON.stringify(text));
      }
      const pid = await idleStandbyAppears(warm);
      const other = Deno.makeTempDirSync();
      for (const start of [request("true", other), request("true", cwd, { EXTRA: "1" })]) {
        const tree = warm.spawn(start);
        assert.notEqual(tree.pid, pid, "a different cwd or environment spawns directly");
        await runTree(tree, "");
      }
      Deno.removeSync(other);
    } finally {
      await warm.sweep([], 1_000);
      clearInterval(hold);
      Deno.removeSync(cwd, { recursive: true });
    }
  },
});

Deno.test({
  name: "a cwd replaced since the standby started in it is not run in the old directory",
  ignore: !SUPPORTED,
  async fn() {
    const parent = Deno.makeTempDirSync();
    const cwd = `${parent}/work`;
    Deno.mkdirSync(cwd);
    const warm = control(true);
    const hold = setInterval(() => {}, 60_000);
    try {
      await runTree(warm.spawn(request("true", cwd)), "");
      const pid = await idleStandbyAppears(warm);
      Deno.removeSync(cwd);
      Deno.mkdirSync(cwd);
      Deno.writeTextFileSync(`${cwd}/marker`, "new directory");
      const tree = warm.spawn(request("cat marker", cwd));
      assert.notEqual(tree.pid, pid);
      assert.equal((await runTree(tree, "")).stdout, "new directory");
    } finally {
      await warm.sweep([], 1_000);
      clearInterval(hold);
      Deno.removeSync(parent, { recursive: true });
    }
  },
});

Deno.test({
  name: "sweep ends the idle standby and no other starts",
  ignore: !SUPPORTED,
  async fn() {
    const warm = control(true);
    const hold = setInterval(() => {}, 60_000);
    try {
      await runTree(warm.spawn(request("true", Deno.cwd())), "");
      const pid = await idleStandbyAppears(warm);
      await warm.sweep([], 1_000);
      await eventually(() => !isAlive(pid), 10_000, "the standby to exit");
      // Reaped, not left a zombie: its /proc entry goes.
      await eventually(() => !existsSync(`/proc/${pid}`), 10_000, "the standby to be reaped");
      assert.equal(idleStandby(MARK), null);
      // The answer after a sweep (a shutdown, a closed session) prepares none until a start.
      warm.prepareNext?.();
      assert.equal(idleStandby(MARK), null);
    } finally {
      clearInterval(hold);
    }
  },
});
