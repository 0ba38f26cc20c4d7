/**
 * Issue 12's "done means", end to end: the server started as the README does, with
 * `--sandbox declared` or `strict`, driven through the SDK's real Client, the host checked from
 * outside (this test reads /proc). Ignored, with the reason printed, where bubblewrap cannot run.
 */
import assert from "node:assert/strict";
import {
  bwrapTest,
  exists,
  hostPidsWithArg,
  loopbackListener,
  sleepLoopPids,
  workspace as sandboxWorkspace,
} from "../platform/sandbox_harness.ts";
import { eventually, isAlive, marker, type Session, startServer } from "./harness.ts";
import { connectHttp, startHttpServer } from "./http_harness.ts";

const workspace = () => sandboxWorkspace("ys-e2e-sandbox-");

/** A server with `--sandbox MODE` whose commands run in `dir` (also its only allowed root). */
function sandboxedServer(mode: string, dir: string, args: string[] = []): Promise<Session> {
  return startServer({
    args: ["--sandbox", mode, "--allowed-cwd", dir, "--default-cwd", dir, ...args],
  });
}

async function run(session: Session, command: string, sideEffects: string[]) {
  const reply = await session.call("execute", { command, side_effects: sideEffects });
  return reply.payload;
}

bwrapTest(
  "NONE: writing to the cwd fails, and the hint names MODIFIES_WORKSPACE_FILES",
  async () => {
    const dir = await workspace();
    try {
      await using session = await sandboxedServer("declared", dir);
      const refused = await run(session, "echo x > out.txt", ["NONE"]);
      assert.equal(refused.status, "completed");
      assert.notEqual(refused.exit_code, 0);
      assert.match(refused.stderr, /Read-only file system/);
      assert.equal(refused.sandbox, "read-only, no network");
      assert.match(refused.sandbox_hint, /declare MODIFIES_WORKSPACE_FILES/);
      assert.ok(!exists(`${dir}/out.txt`));

      const written = await run(session, "echo x > out.txt && cat out.txt", [
        "MODIFIES_WORKSPACE_FILES",
      ]);
      assert.deepEqual([written.exit_code, written.stdout], [0, "x\n"], written.stderr);
      assert.equal(written.sandbox, "workspace-writable, no network");
      assert.equal(written.sandbox_hint, undefined);
      assert.equal(await Deno.readTextFile(`${dir}/out.txt`), "x\n");

      // Every result of a sandboxed execution names its profile, ps included.
      const { payload } = await session.call("ps", {});
      assert.deepEqual(
        payload.executions.map((entry: { sandbox: string }) => entry.sandbox),
        ["workspace-writable, no network", "read-only, no network"],
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

bwrapTest("a loopback server is reachable only with a network category", async () => {
  const dir = await workspace();
  await using listener = loopbackListener();
  const { received } = listener;
  try {
    await using session = await sandboxedServer("declared", dir);
    const connect = `exec bash -c 'exec 3<>/dev/tcp/127.0.0.1/${listener.port} && ` +
      "echo hello >&3 && echo connected'";
    const offline = await run(session, connect, ["NONE"]);
    assert.notEqual(offline.exit_code, 0);
    assert.equal(offline.stdout, "");
    assert.match(offline.sandbox_hint, /has no network: declare MAKES_NETWORK_REQUESTS/);
    assert.deepEqual(received, []);

    const online = await run(session, connect, ["MAKES_NETWORK_REQUESTS"]);
    assert.deepEqual([online.exit_code, online.stdout], [0, "connected\n"], online.stderr);
    assert.equal(online.sandbox, "read-only, network");
    await eventually(() => received.length > 0, 10_000, "the connection from the sandbox");
    assert.deepEqual(received, ["hello\n"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** What an execution can find out about processes outside its sandbox, as one JSON line. */
function probeCommand(secret: string, pids: number[]): string {
  return [
    // `[Y]S_...`: the command's own argv (and grep's) holds the pattern, not the secret.
    `ps -e -o args= | grep -c '[${secret[0]}]${secret.slice(1)}'`,
    `cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c '[${secret[0]}]${
      secret.slice(1)
    }'`,
    ...pids.map((pid) => `kill -KILL ${pid} 2>&1`),
    "exit 0",
  ].join("; ");
}

bwrapTest(
  "an execution cannot list, signal or read another execution, another session's, or the server",
  async () => {
    const dir = await workspace();
    const secret = marker();
    await using server = await startHttpServer({
      args: ["--sandbox", "declared", "--allowed-cwd", dir, "--default-cwd", dir],
    });
    await using sessionA = await connectHttp(server.url);
    await using sessionB = await connectHttp(server.url);
    try {
      // Session A: a long-running execution whose argv and environment hold the secret.
      const started = await sessionA.call("execute", {
        command: `exec /bin/sh -c 'while :; do sleep 1; done' ${secret}`,
        side_effects: ["NONE"],
        env: { THE_SECRET: secret },
        yield_ms: 0,
      });
      assert.equal(started.payload.status, "backgrounded");
      const victim = started.payload.process_id as number;
      await eventually(() => hostPidsWithArg(secret).length > 0, 10_000, "session A's sleep");
      const [sleeper] = hostPidsWithArg(secret);
      const targets = [victim, sleeper, server.child.pid];
      for (
        const { who, session } of [
          { who: "same session", session: sessionA },
          { who: "other session", session: sessionB },
        ]
      ) {
        const { payload } = await session.call("execute", {
          command: probeCommand(secret, targets),
          side_effects: ["NONE"],
        });
        const lines = (payload.stdout as string).split("\n").filter((line) => line !== "");
        assert.deepEqual(
          lines.slice(0, 2),
          ["0", "0"],
          `${who}: saw the secret: ${payload.stdout}`,
        );
        assert.equal(lines.length, 2 + targets.length, `${who}: ${payload.stdout}`);
        for (const line of lines.slice(2)) assert.match(line, /No such process/, who);
      }
      assert.ok(isAlive(sleeper) && isAlive(server.child.pid), "nothing outside was killed");
      const { payload } = await sessionA.call("ps", {});
      assert.equal(payload.executions.at(-1).status, "running");
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
);

bwrapTest("kill $PPID under any profile leaves the server running", async (t) => {
  const dir = await workspace();
  try {
    for (const mode of ["declared", "strict"]) {
      await using session = await sandboxedServer(mode, dir);
      for (
        const sideEffects of [
          ["NONE"],
          ["MODIFIES_WORKSPACE_FILES"],
          ["MAKES_NETWORK_REQUESTS", "DELETES_FILES"],
          ["CHANGES_PACKAGES_OR_DEPENDENCIES"],
          ...(mode === "strict" ? [["STOPS_OR_RESTARTS_SERVICES"], ["UNKNOWN"]] : []),
        ]
      ) {
        await t.step(`${mode}: ${sideEffects.join(",")}`, async () => {
          // The parent is the sandbox's init: TERM and HUP reach only daemons that left the
          // command's group, KILL ends that one execution.
          const termed = await run(
            session,
            "kill -TERM $PPID; kill -HUP $PPID; echo still-here",
            sideEffects,
          );
          assert.equal(termed.stdout, "still-here\n", termed.stderr);
          const killed = await run(session, "kill -KILL $PPID; sleep 30", sideEffects);
          assert.deepEqual([killed.exit_code, killed.signal], [-9, "SIGKILL"]);
          assert.ok(isAlive(session.pid), "the server is alive");
          const after = await run(session, "echo served", ["NONE"]);
          assert.equal(after.stdout, "served\n");
        });
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A daemon that leaves the session and drops every marker: no token, no variable, no argv. */
const DAEMON = (tag: string) =>
  `setsid nohup env -i /bin/sh -c 'while :; do sleep 1; done' ${tag} >/dev/null 2>&1 & ` +
  "echo started";

bwrapTest("a daemon that re-sessions and drops every marker dies on stop", async () => {
  const dir = await workspace();
  const tag = marker();
  try {
    await using session = await sandboxedServer("declared", dir);
    const started = await session.call("execute", {
      command: DAEMON(tag),
      side_effects: ["NONE"],
      yield_ms: 500,
    });
    // The shell is done, but the daemon lives inside the sandbox: the execution runs on.
    assert.equal(started.payload.status, "backgrounded", JSON.stringify(started.payload));
    await eventually(() => sleepLoopPids(tag).length === 1, 10_000, "the daemon");
    const [daemon] = sleepLoopPids(tag);
    assert.ok(!Deno.readTextFileSync(`/proc/${daemon}/environ`).includes("_MCP_YIELDSHELL"));
    const id = started.payload.execution_id;
    const stopped = await session.call("stop", { execution_id: id });
    assert.equal(stopped.payload.stopped, true, JSON.stringify(stopped.payload));
    assert.ok(!isAlive(daemon), "the daemon died with the stop");
    const waited = await session.call("wait", { execution_id: id, timeout_ms: 1000 });
    assert.equal(waited.payload.status, "stopped");
  } finally {
    for (const pid of hostPidsWithArg(tag)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});

bwrapTest("a daemon that re-sessions and drops every marker dies on shutdown", async () => {
  const dir = await workspace();
  const tag = marker();
  try {
    const session = await sandboxedServer("declared", dir);
    try {
      const started = await session.call("execute", {
        command: DAEMON(tag),
        side_effects: ["NONE"],
        yield_ms: 500,
      });
      assert.equal(started.payload.stdout, "started\n");
      await eventually(() => sleepLoopPids(tag).length === 1, 10_000, "the daemon");
    } finally {
      await session.close();
    }
    assert.deepEqual(sleepLoopPids(tag), [], "the daemon died with the server's shutdown");
  } finally {
    for (const pid of hostPidsWithArg(tag)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});

bwrapTest(
  "background jobs keep the execution running; a stop's signal is reported as -N",
  async () => {
    const dir = await workspace();
    try {
      await using session = await sandboxedServer("declared", dir);
      const job = await run(session, "sleep 0.3 && echo late & echo early", ["NONE"]);
      assert.deepEqual([job.status, job.exit_code, job.stdout], ["completed", 0, "early\nlate\n"]);

      const started = await session.call("execute", {
        command: "sleep 1000",
        side_effects: ["NONE"],
        yield_ms: 0,
      });
      const id = started.payload.execution_id;
      await session.call("stop", { execution_id: id });
      const waited = await session.call("wait", { execution_id: id, timeout_ms: 10_000 });
      assert.deepEqual(
        [waited.payload.status, waited.payload.exit_code, waited.payload.signal],
        ["stopped", -15, "SIGTERM"],
      );
      const killed = await run(session, "kill -KILL $$", ["NONE"]);
      assert.deepEqual([killed.exit_code, killed.signal, killed.stderr], [-9, "SIGKILL", ""]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

bwrapTest(
  "a category the sandbox cannot confine is refused unless the operator allows it",
  async () => {
    const dir = await workspace();
    const outside = `/var/tmp/ys-e2e-unconfined-${crypto.randomUUID()}`;
    try {
      {
        await using session = await sandboxedServer("declared", dir);
        const refused = await session.call("execute", {
          command: `touch ${outside}`,
          side_effects: ["MODIFIES_OUTSIDE_WORKSPACE"],
        });
        assert.equal(refused.isError, true);
        assert.equal(refused.payload.status, "failed_to_start");
        assert.match(refused.payload.error, /--allow-unconfined MODIFIES_OUTSIDE_WORKSPACE/);
        assert.ok(!exists(outside));
      }
      await using allowed = await sandboxedServer("declared", dir, [
        "--allow-unconfined",
        "MODIFIES_OUTSIDE_WORKSPACE",
      ]);
      const ran = await run(allowed, `touch ${outside}`, ["MODIFIES_OUTSIDE_WORKSPACE"]);
      assert.deepEqual([ran.exit_code, ran.sandbox], [0, "unconfined"], ran.stderr);
      assert.ok(exists(outside), "it ran without a sandbox, as the operator allowed");
      // Other categories stay refused.
      const other = await allowed.call("execute", { command: "true", side_effects: ["UNKNOWN"] });
      assert.equal(other.payload.status, "failed_to_start");
    } finally {
      await Deno.remove(outside).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
);

bwrapTest("strict holds whatever is declared", async () => {
  const dir = await workspace();
  const outside = `/var/tmp/ys-e2e-strict-${crypto.randomUUID()}`;
  try {
    await using session = await sandboxedServer("strict", dir, [
      "--allow-unconfined",
      "MODIFIES_OUTSIDE_WORKSPACE",
    ]);
    for (
      const declared of [
        ["MODIFIES_OUTSIDE_WORKSPACE"],
        ["UNKNOWN"],
        ["STOPS_OR_RESTARTS_SERVICES", "RUNS_PRIVILEGED_COMMANDS"],
      ]
    ) {
      const ran = await run(
        session,
        `echo in > inside.txt && touch ${outside}; ps -e -o args= | grep -c '[d]eno'`,
        declared,
      );
      assert.equal(ran.sandbox, "workspace-writable, no network", declared.join());
      assert.equal(ran.stdout, "0\n", `${declared}: saw the server`);
      assert.match(ran.sandbox_hint, /the sandbox is strict/, ran.stderr);
      assert.ok(!exists(outside), `${declared}: wrote outside the workspace`);
      assert.equal(await Deno.readTextFile(`${dir}/inside.txt`), "in\n");
      await Deno.remove(`${dir}/inside.txt`);
    }
  } finally {
    await Deno.remove(outside).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

bwrapTest(
  "a terminal execution the sandbox would confine is refused; an unconfined one runs on its terminal",
  async () => {
    const dir = await workspace();
    try {
      await using session = await startServer({
        permissionSet: "tty",
        args: [
          "--sandbox",
          "declared",
          "--allowed-cwd",
          dir,
          "--default-cwd",
          dir,
          "--allow-unconfined",
          "MODIFIES_OUTSIDE_WORKSPACE",
        ],
      });
      const refused = await session.call("execute", {
        command: "echo x > out.txt",
        side_effects: ["MODIFIES_WORKSPACE_FILES"],
        tty: true,
      });
      assert.equal(refused.isError, true);
      assert.equal(refused.payload.status, "failed_to_start");
      assert.match(refused.payload.error, /tty: true inside the OS sandbox/);
      assert.match(refused.payload.error, /without tty/);
      assert.ok(!exists(`${dir}/out.txt`), "nothing ran");

      const unconfined = await session.call("execute", {
        command: "echo on-a-terminal",
        side_effects: ["MODIFIES_OUTSIDE_WORKSPACE"],
        tty: true,
      });
      assert.equal(unconfined.payload.sandbox, "unconfined");
      assert.equal(unconfined.payload.tty?.output, "stdout");
      assert.match(unconfined.payload.stdout, /on-a-terminal/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
