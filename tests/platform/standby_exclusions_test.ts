/**
 * What the standby must never serve (src/platform/session_start.ts): a start whose call set
 * variables, a pinned cwd (allowed roots), a sandboxed start, none of which prepares one
 * either; and a sandboxed lone simple command keeps its shell (its init runs it as asked).
 * prepareNext spawns synchronously, so "no standby" is checked right after it, with no wait.
 */
import assert from "node:assert/strict";
import type { ProcessControl, SpawnRequest } from "../../src/core/process.ts";
import { findSetsid } from "../../src/platform/find_program.ts";
import { createPosixControl } from "../../src/platform/posix.ts";
import { openSandbox } from "../../src/platform/sandbox.ts";
import type { Sandbox } from "../../src/platform/sandbox_types.ts";
import { LINUX_SIGNALS } from "../../src/platform/signal_numbers.ts";
import { ON_LINUX } from "../os.ts";
import { runTree } from "./run_tree.ts";
import { idleStandby, STANDBY_MARK_VARIABLE } from "./standby_probe.ts";
import { eventually } from "../e2e/harness.ts";
import { BWRAP_UNAVAILABLE, confinementFor } from "./sandbox_harness.ts";

/** The standby needs Linux, util-linux setsid and /bin/sh being dash. */
const SUPPORTED = ON_LINUX && findSetsid() !== null &&
  /(^|\/)dash$/.test(Deno.realPathSync("/bin/sh"));
/** In this file's standbys' environment, so that another file's are not taken for them. */
const MARK = crypto.randomUUID();

async function bubblewrap(): Promise<Sandbox> {
  const opening = await openSandbox({ os: "linux", mode: "declared" });
  if (!opening.ok || opening.sandbox === null) throw new Error(JSON.stringify(opening));
  return opening.sandbox;
}

function control(sandbox: Sandbox | null): ProcessControl {
  return createPosixControl({
    signals: LINUX_SIGNALS,
    containment: true,
    selfPid: Deno.pid,
    setsidPath: findSetsid(),
    sandbox,
    standby: true,
    execInPlace: true,
  });
}

function plain(command: string, cwd: string): SpawnRequest {
  const env = { ...Deno.env.toObject(), [STANDBY_MARK_VARIABLE]: MARK };
  return { shell: "/bin/sh", command, cwd, env, reusable: true };
}

/** The starts no standby may serve, each as the core would ask for it. */
function excluded(cwd: string, sandboxed: boolean): [string, SpawnRequest][] {
  const starts: [string, SpawnRequest][] = [
    ["the call set a variable", {
      ...plain("echo $X", cwd),
      env: { ...plain("", cwd).env, X: "1" },
      reusable: false,
    }],
    ["not reusable (a terminal)", { ...plain("echo terminal", cwd), reusable: false }],
    ["a pinned cwd", { ...plain("echo pinned", cwd), cwdChecked: true }],
  ];
  if (sandboxed) {
    const confinement = confinementFor(["NONE"], { cwd });
    starts.push(["sandboxed", { ...plain("echo sandboxed", cwd), confinement }]);
  }
  return starts;
}

Deno.test({
  name: "a start with variables, a pinned cwd or a sandbox neither prepares nor takes the standby",
  ignore: !SUPPORTED,
  async fn() {
    const cwd = Deno.realPathSync(Deno.makeTempDirSync());
    const sandboxed = BWRAP_UNAVAILABLE === null;
    const warm = control(sandboxed ? await bubblewrap() : null);
    try {
      for (const [what, start] of excluded(cwd, sandboxed)) {
        const { exit } = await runTree(warm.spawn(start));
        assert.equal(exit.exitCode, 0, what);
        warm.prepareNext?.();
        assert.equal(idleStandby(MARK), null, `${what}: no standby prepared`);
      }
      await runTree(warm.spawn(plain("true", cwd)));
      warm.prepareNext?.();
      // Found once it has exec'd its shell (during an exec its cmdline reads empty).
      await eventually(() => idleStandby(MARK) !== null, 10_000, "a plain start to prepare one");
      const standby = idleStandby(MARK);
      for (const [what, start] of excluded(cwd, sandboxed)) {
        const tree = warm.spawn(start);
        assert.notEqual(tree.pid, standby, `${what}: not served by the standby`);
        const { stdout, exit } = await runTree(tree);
        assert.equal(exit.exitCode, 0, what);
        assert.notEqual(stdout, "", what);
        assert.equal(idleStandby(MARK), standby, `${what}: the standby is still idle`);
      }
    } finally {
      await warm.sweep([], 1_000);
      Deno.removeSync(cwd, { recursive: true });
    }
  },
});

Deno.test({
  name: "a sandboxed lone simple command keeps its shell (its init runs it as asked)",
  ignore: !SUPPORTED || BWRAP_UNAVAILABLE !== null,
  async fn() {
    const cwd = Deno.realPathSync(Deno.makeTempDirSync());
    const processes = control(await bubblewrap());
    try {
      const confinement = confinementFor(["NONE"], { cwd });
      const inside = async (command: string) => {
        const { stdout, stderr, exit } = await runTree(
          processes.spawn({ ...plain(command, cwd), confinement }),
        );
        assert.equal(exit.exitCode, 0, stderr);
        return stdout;
      };
      // A compound command keeps its shell anyway: the lone one must show the same processes.
      assert.equal(await inside("ps -A -o comm="), await inside("ps -A -o comm=; true"));
    } finally {
      await processes.sweep([], 1_000);
      Deno.removeSync(cwd, { recursive: true });
    }
  },
});
