/**
 * The bubblewrap sandbox, for real: the argv `bwrapArgv` builds from policy's confinement runs
 * through `setsid` as the server's children do, and every claim of the README's sandbox section
 * is checked from inside and outside (the test reads /proc).
 */
import assert from "node:assert/strict";
import { sandboxHint } from "../../src/policy/sandbox_hint.ts";
import { eventually, isAlive, marker } from "../e2e/harness.ts";
import {
  bwrapTest,
  confinementFor,
  exists,
  HOST,
  hostPidsWithArg,
  loopbackListener,
  runSandboxed,
  sandboxedArgv,
  signalGroup,
  sleepLoopPids,
  spawnSandboxed,
  workspace,
} from "./sandbox_harness.ts";

const READ_ONLY = { filesystem: "read-only", network: false } as const;
const WORKSPACE = { filesystem: "workspace-writable", network: false } as const;

/** A plain host process (not sandboxed) for the sandbox to try to reach. */
function hostSleeper(): Deno.ChildProcess {
  return new Deno.Command("sleep", { args: ["1000"], stdout: "null", stderr: "null" }).spawn();
}

async function stop(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGKILL");
  } catch { /* gone */ }
  await child.status;
}

bwrapTest("NONE: the cwd is visible and read-only, /tmp is private and writable", async () => {
  const dir = await workspace();
  const hostOnly = `/tmp/ys-host-only-${crypto.randomUUID()}`;
  const inside = `/tmp/ys-inside-${crypto.randomUUID()}`;
  try {
    await Deno.writeTextFile(`${dir}/input.txt`, "visible\n");
    await Deno.writeTextFile(hostOnly, "host\n");
    const confinement = confinementFor(["NONE"], { cwd: dir });

    const read = await runSandboxed(
      `cat input.txt && echo private > ${inside} && cat ${inside} && ! test -e ${hostOnly}`,
      confinement,
    );
    assert.deepEqual([read.code, read.stdout], [0, "visible\nprivate\n"], read.stderr);
    assert.ok(!exists(inside), "the sandbox's /tmp is its own");

    const write = await runSandboxed("echo x > out.txt", confinement);
    assert.notEqual(write.code, 0);
    assert.match(write.stderr, /Read-only file system/);
    assert.ok(!exists(`${dir}/out.txt`));
    const hint = sandboxHint(READ_ONLY, "declared", { exitCode: write.code, stderr: write.stderr });
    assert.match(hint ?? "", /declare MODIFIES_WORKSPACE_FILES/);

    const remove = await runSandboxed("rm input.txt", confinement);
    assert.notEqual(remove.code, 0);
    assert.ok(exists(`${dir}/input.txt`));
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(hostOnly).catch(() => {});
  }
});

bwrapTest("MODIFIES_WORKSPACE_FILES: the workspace roots are writable, nothing else", async () => {
  const rootA = await workspace();
  const rootB = await workspace();
  const outside = `/var/tmp/ys-outside-${crypto.randomUUID()}`;
  try {
    const confinement = confinementFor(["MODIFIES_WORKSPACE_FILES"], {
      cwd: rootA,
      allowedRoots: [rootA, rootB],
    });
    const ran = await runSandboxed(`echo a > out.txt && echo b > ${rootB}/out.txt`, confinement);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(await Deno.readTextFile(`${rootA}/out.txt`), "a\n");
    assert.equal(await Deno.readTextFile(`${rootB}/out.txt`), "b\n");

    const escape = await runSandboxed(`touch ${outside}`, confinement);
    assert.notEqual(escape.code, 0);
    assert.ok(!exists(outside));
    const hint = sandboxHint(WORKSPACE, "declared", {
      exitCode: escape.code,
      stderr: escape.stderr,
    });
    assert.match(hint ?? "", /outside the workspace: declare MODIFIES_OUTSIDE_WORKSPACE/);
  } finally {
    await Deno.remove(rootA, { recursive: true });
    await Deno.remove(rootB, { recursive: true });
    await Deno.remove(outside).catch(() => {});
  }
});

bwrapTest("network: a loopback server is unreachable without a network category", async () => {
  const dir = await workspace();
  await using listener = loopbackListener();
  const { received } = listener;
  try {
    const { port } = listener;
    const connect =
      `exec bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && echo hello >&3 && echo connected'`;

    const offline = await runSandboxed(connect, confinementFor(["NONE"], { cwd: dir }));
    assert.notEqual(offline.code, 0);
    assert.doesNotMatch(offline.stdout, /connected/);
    const hint = sandboxHint(READ_ONLY, "declared", {
      exitCode: offline.code,
      stderr: offline.stderr,
    });
    assert.match(hint ?? "", /has no network: declare MAKES_NETWORK_REQUESTS/, offline.stderr);

    const online = await runSandboxed(
      connect,
      confinementFor(["MAKES_NETWORK_REQUESTS"], { cwd: dir }),
    );
    assert.deepEqual([online.code, online.stdout], [0, "connected\n"], online.stderr);
    await eventually(() => received.length > 0, 10_000, "the connection from the sandbox");
    assert.deepEqual(received, ["hello\n"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

bwrapTest("offline: host daemons' sockets under /run are hidden", async () => {
  if (!HOST.offlineHidden?.includes("/run")) return;
  const dir = await workspace();
  const path = `/run/ys-test-${crypto.randomUUID()}.sock`;
  const listener = Deno.listen({ transport: "unix", path });
  try {
    const probe = `test -S ${path} && echo seen || echo hidden`;
    const offline = await runSandboxed(probe, confinementFor(["NONE"], { cwd: dir }));
    assert.equal(offline.stdout, "hidden\n", offline.stderr);
    const online = await runSandboxed(
      probe,
      confinementFor(["MAKES_NETWORK_REQUESTS"], { cwd: dir }),
    );
    assert.equal(online.stdout, "seen\n", online.stderr);
  } finally {
    listener.close();
    await Deno.remove(path).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

bwrapTest("no capabilities inside, even as root", async () => {
  const dir = await workspace();
  try {
    const ran = await runSandboxed(
      "grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' /proc/self/status; " +
        "touch /tmp/f && chown 4321 /tmp/f 2>/dev/null && echo chown-worked; " +
        "mount -t tmpfs none /tmp 2>/dev/null && echo mount-worked; exit 0",
      confinementFor(["NONE"], { cwd: dir }),
    );
    const lines = ran.stdout.trim().split("\n");
    assert.equal(lines.length, 5, ran.stdout + ran.stderr);
    for (const line of lines) assert.match(line, /^Cap\w+:\s+0{16}$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

bwrapTest("an execution cannot see, read or signal the server, a sibling or the host", async () => {
  const dir = await workspace();
  const sibling = marker();
  const secret = marker();
  const confinement = confinementFor(["NONE"], { cwd: dir });
  const other = spawnSandboxed(
    `exec /bin/sh -c 'while :; do sleep 1; done' ${sibling}`,
    confinement,
    { SIBLING_SECRET: secret },
  );
  const host = hostSleeper();
  try {
    await eventually(() => sleepLoopPids(sibling).length > 0, 10_000, "the sibling sandbox");
    const [siblingPid] = sleepLoopPids(sibling);
    const ran = await runSandboxed(
      [
        "ps -e -o args=",
        "echo ---",
        `cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c ${secret}`,
        `kill -0 ${Deno.pid} 2>&1`,
        `kill -KILL ${siblingPid} 2>&1`,
        `kill -KILL ${host.pid} 2>&1`,
        "exit 0",
      ].join("; "),
      confinement,
    );
    const [processes, rest] = ran.stdout.split("---\n");
    // Only the sandbox's own init (bwrap), its shell and ps.
    assert.ok(!processes.includes(sibling), processes);
    assert.ok(!/\bdeno\b/.test(processes), processes);
    assert.ok(processes.trim().split("\n").length <= 4, processes);
    const [count, ...kills] = rest.split("\n").filter((line) => line !== "");
    assert.equal(count, "0", "no other environment is readable");
    assert.equal(kills.length, 3, JSON.stringify(rest));
    for (const line of kills) assert.match(line, /No such process/);
    assert.ok(isAlive(siblingPid), "the sibling survived");
    assert.ok(isAlive(host.pid), "the host process survived");
  } finally {
    await stop(host);
    signalGroup(other.pid, "SIGKILL");
    await other.status;
    await Deno.remove(dir, { recursive: true });
  }
});

bwrapTest("kill $PPID reaches nothing outside, whatever the profile", async (t) => {
  const dir = await workspace();
  const host = hostSleeper();
  try {
    for (const sideEffects of [["NONE"], ["MAKES_NETWORK_REQUESTS", "DELETES_FILES"]] as const) {
      await t.step(sideEffects.join(","), async () => {
        // Never `kill 1` here: should the PID namespace ever be missing, that is the host's init.
        // The parent is the sandbox's init: a signal it traps goes on only to daemons that left
        // the command's group (none here), so the command runs on.
        const confinement = confinementFor([...sideEffects], { cwd: dir });
        const termed = await runSandboxed(
          "kill -TERM $PPID; kill -HUP $PPID; echo survived",
          confinement,
        );
        assert.deepEqual([termed.code, termed.stdout], [0, "survived\n"], termed.stderr);
        // SIGKILL ends the init, and with it this sandbox: nothing outside.
        const killed = await runSandboxed(
          "kill -KILL $PPID; sleep 30; echo not-killed",
          confinement,
        );
        assert.deepEqual([killed.code, killed.stdout], [128 + 9, ""], killed.stderr);
        assert.ok(isAlive(host.pid), "the host process survived");
      });
    }
  } finally {
    await stop(host);
    await Deno.remove(dir, { recursive: true });
  }
});

bwrapTest("a stop signal reaches the command, and bwrap reports the command's exit", async () => {
  const dir = await workspace();
  const child = spawnSandboxed(
    "trap 'echo got-term; exit 3' TERM; echo ready; while :; do sleep 0.1; done",
    confinementFor(["NONE"], { cwd: dir }),
  );
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!seen.includes("ready\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    assert.ok(signalGroup(child.pid, "SIGTERM"));
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    const status = await child.status;
    assert.equal(seen, "ready\ngot-term\n");
    assert.deepEqual([status.code, status.signal], [3, null]);
  } finally {
    await child.stderr.cancel();
    signalGroup(child.pid, "SIGKILL");
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

/** A daemon that leaves the session and drops its environment marker, started in a sandbox. */
const DAEMON = (tag: string) =>
  `setsid nohup env -u DAEMON_MARK /bin/sh -c 'while :; do sleep 1; done' ${tag} ` +
  ">/dev/null 2>&1 & echo started; wait";

function sessionOf(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]);
}

bwrapTest(
  "a daemon that re-sessions and drops its marker dies when the execution is stopped",
  async () => {
    const dir = await workspace();
    const tag = marker();
    const child = spawnSandboxed(DAEMON(tag), confinementFor(["NONE"], { cwd: dir }), {
      DAEMON_MARK: tag,
    });
    try {
      await eventually(() => sleepLoopPids(tag).length === 1, 10_000, "the daemon");
      const [daemon] = sleepLoopPids(tag);
      assert.notEqual(sessionOf(daemon), child.pid, "the daemon left the session");
      assert.ok(!Deno.readTextFileSync(`/proc/${daemon}/environ`).includes(tag));
      // The stop the server sends: TERM to the group. The daemon is not in it, but the command's
      // shell is, and the sandbox (its PID namespace) ends with that shell.
      assert.ok(signalGroup(child.pid, "SIGTERM"));
      const status = await child.status;
      assert.equal(status.code, 128 + 15, "bwrap reports the shell's death by TERM as 128+15");
      await eventually(() => !isAlive(daemon), 10_000, "the daemon to die");
      await eventually(() => hostPidsWithArg(tag).length === 0, 10_000, "the whole sandbox to go");
    } finally {
      signalGroup(child.pid, "SIGKILL");
      await child.status;
      await child.stdout.cancel().catch(() => {});
      await child.stderr.cancel().catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
);

bwrapTest("background processes keep the sandbox until they end, daemons included", async () => {
  const dir = await workspace();
  const tag = marker();
  // The shell exits at once; a job and a daemon that left the session live on for a while.
  const command = `sleep 0.5 & setsid /bin/sh -c 'sleep 1; echo daemon-done >&2' ${tag} & ` +
    "echo shell-done";
  try {
    const ran = await runSandboxed(command, confinementFor(["NONE"], { cwd: dir }));
    // The daemon's line proves the sandbox waited: had it ended with the shell, its PID
    // namespace would have killed the daemon before it wrote.
    assert.deepEqual([ran.code, ran.stdout, ran.stderr], [0, "shell-done\n", "daemon-done\n"]);
    assert.deepEqual(hostPidsWithArg(tag), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

bwrapTest("the sandbox dies with its parent (a server killed with SIGKILL)", async () => {
  const dir = await workspace();
  const tag = marker();
  // A stand-in server: a shell that starts the sandbox the way the server does, then waits.
  const inner = sandboxedArgv(DAEMON(tag), confinementFor(["NONE"], { cwd: dir }));
  const parent = new Deno.Command("/bin/sh", {
    args: ["-c", '"$@" & wait', "sh", ...inner],
    cwd: dir,
    env: { PATH: "/usr/bin:/bin", DAEMON_MARK: tag },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await eventually(() => sleepLoopPids(tag).length === 1, 10_000, "the daemon");
    const [daemon] = sleepLoopPids(tag);
    parent.kill("SIGKILL");
    await parent.status;
    await eventually(() => !isAlive(daemon), 10_000, "the daemon to die with the parent");
    await eventually(() => hostPidsWithArg(tag).length === 0, 10_000, "the whole sandbox to go");
  } finally {
    await stop(parent);
    for (const pid of hostPidsWithArg(tag)) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
    await Deno.remove(dir, { recursive: true });
  }
});

bwrapTest("strict: declared categories cannot widen the sandbox", async () => {
  const dir = await workspace();
  const outside = `/var/tmp/ys-strict-${crypto.randomUUID()}`;
  try {
    for (const declared of [["MODIFIES_OUTSIDE_WORKSPACE"], ["UNKNOWN"], ["KILLS_AGENT_PROCESS"]]) {
      const confinement = confinementFor(declared as ["UNKNOWN"], { cwd: dir }, "strict");
      const ran = await runSandboxed(
        `echo in > inside.txt && touch ${outside}; ps -e -o args= | grep -c '[d]eno'`,
        confinement,
      );
      assert.equal(await Deno.readTextFile(`${dir}/inside.txt`), "in\n", ran.stderr);
      assert.ok(!exists(outside), `${declared}: wrote outside the workspace`);
      assert.equal(ran.stdout, "0\n", `${declared}: saw the server`);
      const hint = sandboxHint(WORKSPACE, "strict", { exitCode: 1, stderr: ran.stderr });
      assert.match(hint ?? "", /the sandbox is strict/);
      assert.equal(confinement.network, false);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside).catch(() => {});
  }
});
