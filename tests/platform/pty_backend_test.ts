import assert from "node:assert/strict";
import { LINUX_PTY_ABI } from "../../src/platform/pty/abi.ts";
import { createPtyBackend, FFI_MISSING } from "../../src/platform/pty/mod.ts";
import { LINUX_SIGNALS } from "../../src/platform/signal_numbers.ts";
import { eventually, isAlive, processesWithMarker } from "../e2e/harness.ts";
import { linux, posix } from "../os.ts";
import { startPty } from "./pty_harness.ts";

posix.test("the program sees a terminal of the requested size as stdin, stdout and stderr", async () => {
  await using run = startPty(
    'test -t 0 && test -t 1 && test -t 2 && echo all-tty; stty size; echo "term=$TERM"',
    { cols: 91, rows: 27 },
  );
  await run.ended;
  assert.equal(run.text(), "all-tty\r\n27 91\r\nterm=xterm-256color\r\n");
  assert.deepEqual(await run.pty.exited, { exitCode: 0, signal: null });
});

posix.test("the program leads its own session with the terminal as controlling terminal", async () => {
  await using run = startPty("ps -o pid=,pgid=,sid=,tpgid= -p $$; tty");
  await run.ended;
  const [pid, pgid, sid, tpgid] = run.text().trim().split(/\s+/).map(Number);
  assert.equal(pid, run.pty.pid);
  assert.equal(pgid, run.pty.pid);
  assert.equal(sid, run.pty.pid);
  assert.equal(tpgid, run.pty.pid, "the session's group is the terminal's foreground group");
  assert.match(run.text(), /\/dev\/(pts\/|ttys)\d+/);
});

posix.test("output ends with every byte once no process holds the terminal", async () => {
  await using run = startPty("seq 1 200000; echo done");
  await run.ended;
  const lines = run.text().split("\r\n");
  assert.equal(lines.length, 200_002);
  assert.equal(lines[199_999], "200000");
  assert.equal(lines[200_000], "done");
});

linux.test("exit codes, signal deaths, cwd and environment reach the caller", async (t) => {
  await t.step("exit code", async () => {
    await using run = startPty("exit 7");
    assert.deepEqual(await run.pty.exited, { exitCode: 7, signal: null });
  });
  await t.step("death by signal", async () => {
    await using run = startPty("kill -TERM $$");
    assert.deepEqual(await run.pty.exited, { exitCode: -15, signal: "SIGTERM" });
  });
  await t.step("cwd and env", async () => {
    const dir = await Deno.makeTempDir();
    try {
      await using run = startPty('pwd; echo "$GREETING"', {
        cwd: dir,
        env: { GREETING: "hi there" },
      });
      await run.ended;
      assert.equal(run.text(), `${await Deno.realPath(dir)}\r\nhi there\r\n`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
  await t.step(
    "default signal dispositions: SIGPIPE is not ignored, as in a login shell",
    async () => {
      await using run = startPty("grep SigIgn /proc/self/status");
      await run.ended;
      const ignored = BigInt(`0x${/SigIgn:\s+([0-9a-f]+)/.exec(run.text())?.[1]}`);
      assert.equal(ignored & (1n << BigInt(LINUX_SIGNALS.SIGPIPE - 1)), 0n);
    },
  );
});

posix.test("a missing program or cwd fails at spawn with the pipe spawn's message", () => {
  assert.throws(
    () => startPty("true", { shell: "/no/such/shell" }),
    /^Error: Cannot start shell \/no\/such\/shell in .*check that the shell exists/,
  );
  assert.throws(
    () => startPty("true", { cwd: "/no/such/dir" }),
    /^Error: Cannot start shell \/bin\/sh in \/no\/such\/dir: No such file or directory/,
  );
});

Deno.test("a tty spawn without the ffi permission fails with what to do", () => {
  const backend = createPtyBackend({
    abi: LINUX_PTY_ABI,
    signals: LINUX_SIGNALS,
    ffiGranted: () => false,
  });
  assert.equal(backend.unavailable(), FFI_MISSING);
  assert.throws(
    () =>
      backend.spawn({
        shell: "/bin/sh",
        command: "true",
        cwd: "/",
        env: {},
        cols: 80,
        rows: 24,
      }),
    { message: FFI_MISSING },
  );
  assert.match(FFI_MISSING, /-P=tty/);
});

linux.test("a server started with -P=server reports the missing ffi permission", async () => {
  const script = new URL("./fixtures/pty_without_ffi.ts", import.meta.url).pathname;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=server", script],
    cwd: new URL("../../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(stdout.trim(), `unavailable: ${FFI_MISSING}\nspawn: ${FFI_MISSING}`);
});

linux.test("the select() wait path (macOS's) reads and writes like poll()", async () => {
  const backend = createPtyBackend({
    abi: { ...LINUX_PTY_ABI, readiness: "select" },
    signals: LINUX_SIGNALS,
  });
  await using run = startPty('read line; echo "got $line"; seq 1 50000 | tail -n 1', { backend });
  await run.waitFor(""); // started
  await run.type("hello\r");
  await run.ended;
  assert.equal(run.text(), "hello\r\ngot hello\r\n50000\r\n");
});

linux.test("close() hangs up: the session gets SIGHUP and no process is left", async () => {
  const run = startPty(
    "trap 'echo hup > /dev/null; exit 3' HUP; echo ready; sleep 1000 & wait",
    {
      shell: "/bin/bash",
    },
  );
  try {
    await run.waitFor("ready");
    await eventually(() => processesWithMarker(run.marker).length >= 2, 20_000, "sleep running");
    await run.pty.close();
    assert.deepEqual(await run.pty.exited, { exitCode: 3, signal: null });
    await run.ended;
    await eventually(() => processesWithMarker(run.marker).length === 0, 20_000, "no process left");
    assert.equal(isAlive(run.pty.pid), false);
  } finally {
    await run[Symbol.asyncDispose]();
  }
});

linux.test("a write blocked on a full terminal ends when the terminal closes", async () => {
  const run = startPty("echo ready; sleep 1000");
  try {
    await run.waitFor("ready");
    const blocked = run.pty.write(new Uint8Array(1024 * 1024).fill(0x61));
    const outcome = blocked.then(() => "written", (error: Error) => error.message);
    run.pty.signal("SIGKILL");
    await run.pty.exited;
    await run.pty.close();
    assert.equal(await outcome, "Cannot write to the terminal: the terminal is closed");
  } finally {
    await run[Symbol.asyncDispose]();
  }
});
