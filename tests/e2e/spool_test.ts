import assert from "node:assert/strict";
import { eventually, type Session, startServer } from "./harness.ts";
import { ON_WINDOWS } from "../os.ts";

const SPOOL_ROOT = "/tmp/yieldshell-spool";
const posixOnly = { ignore: ON_WINDOWS, sanitizeResources: false, sanitizeOps: false };

/** Cursorless reads until the finished execution has nothing more to give. */
async function drain(session: Session, id: string): Promise<string> {
  let text = "";
  while (true) {
    const { payload } = await session.call("read", { execution_id: id });
    text += payload.stdout + payload.stderr;
    if (payload.next_seq >= payload.latest_seq && payload.status !== "running") return text;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test(
  "20 MB of output read back byte for byte with the default retention",
  posixOnly,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "yieldshell-spool-e2e-" });
    try {
      const data = new Uint8Array(20_000_000);
      for (let i = 0; i < data.length; i++) data[i] = 97 + (i * 7 + (i >> 9)) % 26;
      for (let i = 99; i < data.length; i += 100) data[i] = 10;
      await Deno.writeFile(`${dir}/data.txt`, data);
      // Bigger pages only to keep the test short; the retention settings are the defaults.
      await using session = await startServer({ env: { YIELDSHELL_MAX_OUTPUT_BYTES: "1000000" } });
      const run = await session.call("execute", {
        command: `cat ${dir}/data.txt`,
        side_effects: ["NONE"],
        truncation: "head",
      });
      assert.equal(run.payload.evicted, false);
      const all = run.payload.stdout + await drain(session, run.payload.execution_id);
      assert.equal(all.length, data.length);
      assert.ok(all === new TextDecoder().decode(data), "every byte, in order");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  "seq 1 700000: the default call shows the first and last lines, and reads concatenate exactly",
  posixOnly,
  async () => {
    await using session = await startServer();
    const run = await session.call("execute", { command: "seq 1 700000", side_effects: ["NONE"] });
    const { payload } = run;
    assert.equal(payload.status, "completed");
    assert.equal(payload.capped, true);
    assert.equal(payload.evicted, false);
    assert.ok(payload.stdout.startsWith("1\n2\n3\n"), "the first lines");
    assert.ok(payload.stdout_tail.endsWith("699999\n700000\n"), "the last lines");
    assert.match(payload.stdout_tail, /^\d+\n/, "the tail starts at a line");
    assert.ok(payload.stdout_tail_seq > payload.next_seq);
    const size = payload.stdout.length + payload.stderr.length + payload.stdout_tail.length;
    assert.ok(size <= 20_000, `within max_output_bytes (${size})`);
    const expected = Array.from({ length: 700_000 }, (_, i) => `${i + 1}\n`).join("");
    const all = payload.stdout + await drain(session, payload.execution_id);
    assert.ok(all === expected, "execute's stdout and the cursorless reads are the output");
    const head = await session.call("execute", {
      command: "seq 1 700000",
      side_effects: ["NONE"],
      truncation: "head",
    });
    assert.equal(head.payload.stdout_tail, undefined, "truncation: head adds no tails");
    assert.equal(head.payload.stdout.length, 20_000, "and gives the whole budget to the page");
  },
);

Deno.test(
  "a build log: 500 KB on stdout, then the error line on stderr, shows the error line",
  posixOnly,
  async () => {
    await using session = await startServer();
    const { payload } = await session.call("execute", {
      command: "seq 1 90000 | sed 's/^/step output /'; echo 'ERROR: build failed at step 5' >&2",
      side_effects: ["NONE"],
    });
    assert.equal(payload.capped, true);
    assert.ok(payload.stderr_tail.endsWith("ERROR: build failed at step 5\n"), payload.stderr_tail);
    assert.ok(payload.stdout_tail.endsWith("step output 90000\n"));
    assert.match(payload.hint, /stderr_tail/);
  },
);

Deno.test("spool: off keeps today's memory-only view", posixOnly, async () => {
  await using session = await startServer({ env: { YIELDSHELL_SPOOL: "off" } });
  const { payload } = await session.call("execute", {
    command: "seq 1 700000",
    side_effects: ["NONE"],
  });
  assert.equal(payload.stdout_tail, undefined);
  assert.equal(payload.evicted, true, "the ring buffer dropped the start");
  assert.equal(await exists(`${SPOOL_ROOT}/${session.pid}`), false, "nothing on disk");
});

Deno.test(
  "the spool is removed on cleanup, reap and shutdown; stale spools just after start",
  posixOnly,
  async () => {
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    // A root of its own (inside the server's write grant): servers of other tests, which share
    // the default root, would otherwise race this one to the stale directory.
    const spoolRoot = `${SPOOL_ROOT}/e2e-${crypto.randomUUID()}`;
    const stale = `${spoolRoot}/${dead.pid}`;
    await Deno.mkdir(`${stale}/1`, { recursive: true, mode: 0o700 });
    await Deno.chmod(spoolRoot, 0o700);
    await Deno.writeTextFile(`${stale}/1/stdout-000001.seg`, "old");
    const session = await startServer({
      env: { YIELDSHELL_MAX_RETAINED_PROCESSES: "1", YIELDSHELL_SPOOL_DIR: spoolRoot },
    });
    try {
      // Housekeeping waits until the server is serving, so initialize is not delayed by it.
      await eventually(async () => !(await exists(stale)), 20_000, "the dead server's spool gone");
      await eventually(
        () => session.stderr().includes(`spool directory of a server that is gone: ${stale}`),
        20_000,
        "the removal logged",
      );
      const own = `${spoolRoot}/${session.pid}`;
      const big = { command: "seq 1 400000", side_effects: ["NONE"] };
      await session.call("execute", big);
      const dirs = async () => {
        const names: string[] = [];
        for await (const entry of Deno.readDir(own)) names.push(entry.name);
        return names;
      };
      assert.equal((await dirs()).length, 1, "the first execution spooled");
      const second = await session.call("execute", big);
      await eventually(async () => (await dirs()).length === 1, 20_000, "the reaped spool gone");
      assert.equal(second.payload.status, "completed");
      const cleaned = await session.call("cleanup", { completed_older_than_ms: 0 });
      assert.equal(cleaned.payload.removed, 1);
      assert.deepEqual(await dirs(), [], "cleanup deleted the files");
      await session.call("execute", big);
      assert.equal((await dirs()).length, 1);
      await session.close();
      assert.equal(await exists(own), false, "shutdown deleted the server's spool");
    } finally {
      await session[Symbol.asyncDispose]();
      await Deno.remove(spoolRoot, { recursive: true });
    }
  },
);

Deno.test("a full disk degrades to memory and the server keeps answering", {
  ...posixOnly,
  ignore: ON_WINDOWS || Deno.uid() !== 0,
}, async () => {
  const mount = await Deno.makeTempDir({ prefix: "yieldshell-spool-tmpfs-" });
  const mounted = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mount],
  }).output();
  assert.ok(mounted.success, new TextDecoder().decode(mounted.stderr));
  try {
    await using session = await startServer({
      env: { YIELDSHELL_SPOOL_DIR: mount },
      denoFlags: [`--allow-write=/tmp/yieldshell-spool,${mount}`],
    });
    const { payload } = await session.call("execute", {
      command: "seq 1 1500000",
      side_effects: ["NONE"],
    });
    assert.equal(payload.status, "completed");
    const peek = await session.call("read", {
      execution_id: payload.execution_id,
      since_seq: 1,
    });
    assert.equal(peek.payload.evicted, true, "what did not fit is gone");
    assert.match(peek.payload.hint, /dropped/);
    const tail = await session.call("read", { execution_id: payload.execution_id, tail_lines: 2 });
    assert.equal(tail.payload.stdout, "1499999\n1500000\n", "the newest output is kept");
    const ps = await session.call("ps", {});
    assert.equal(ps.isError, false, "the server still answers");
  } finally {
    await new Deno.Command("umount", { args: [mount] }).output();
    await Deno.remove(mount, { recursive: true });
  }
});

Deno.test(
  "search finds a line near the start of a 200 MB log; bad patterns are refused",
  posixOnly,
  async () => {
    await using session = await startServer();
    const { payload } = await session.call("execute", {
      command:
        "echo start; echo 'error: first failure here'; yes 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' | head -c 200000000",
      side_effects: ["NONE"],
      yield_ms: 55_000,
    });
    const id = payload.execution_id;
    await eventually(
      async () => {
        const { payload } = await session.call("wait", { execution_id: id, timeout_ms: 10_000 });
        return payload.status === "completed";
      },
      120_000,
      "the 200 MB command",
    );
    const found = await session.call("search", { execution_id: id, pattern: "^error: (\\w+)" });
    assert.equal(found.isError, false, found.text);
    assert.equal(found.payload.matches.length, 1);
    const [match] = found.payload.matches;
    assert.equal(match.line, 2);
    assert.equal(match.seq, 7);
    assert.equal(match.text, "error: first failure here");
    assert.deepEqual(match.before, ["start"]);
    const bad = await session.call("search", { execution_id: id, pattern: "(unclosed" });
    assert.equal(bad.isError, true);
    assert.match(bad.payload.error, /regular expression|pattern/i);
    const fixed = await session.call("search", {
      execution_id: id,
      pattern: "(unclosed",
      fixed_string: true,
      max_matches: 1,
    });
    assert.equal(fixed.isError, false);
    assert.equal(fixed.payload.matches.length, 0);
  },
);
