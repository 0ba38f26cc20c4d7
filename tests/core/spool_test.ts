/**
 * The spool on a real disk: 20 MB read back byte for byte, the caps and the server-wide total,
 * full and short disks (a tmpfs mounted by the test, Linux as root only), stale directories
 * of dead servers, unusable spool directories. Random data comes from a fixed seed (printed);
 * `YIELDSHELL_TEST_SEED=<n>` replays another one.
 */
import assert from "node:assert/strict";
import { OutputLog, type StreamName } from "../../src/core/output_log.ts";
import type { Spool } from "../../src/core/spool.ts";
import { createSpoolDisk } from "../../src/platform/spool_disk.ts";
import { ON_LINUX, ON_WINDOWS, posix } from "../os.ts";
import { seedFromEnv } from "./output_model.ts";
import { openTestSpool, quietDisk } from "./spool_fixture.ts";

const SEED = seedFromEnv(20_261_216);
console.log(`spool tests: seed ${SEED}`);

const realDisk = createSpoolDisk({ windows: ON_WINDOWS });
const MIB = 1_048_576;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CAN_MOUNT = ON_LINUX && Deno.uid() === 0;

/** A seeded generator of 32-bit values (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 2 ** 32;
  };
}

async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "yieldshell-spool-test-" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Everything retained, read back page by page as a polling client would. */
function drain(log: OutputLog, pageBytes = 65_536): { stdout: string; stderr: string } {
  const texts = { stdout: "", stderr: "" };
  let cursor = 1;
  while (true) {
    const page = log.read({ startSeq: cursor, maxBytes: pageBytes });
    texts.stdout += page.stdout;
    texts.stderr += page.stderr;
    assert.ok(page.nextSeq > cursor || !page.capped, "every page makes progress");
    cursor = page.nextSeq;
    if (!page.capped) return texts;
  }
}

/** Appends `total` bytes of numbered lines with some multi-byte text, in random chunks. */
function feed(log: OutputLog, stream: StreamName, total: number, next: () => number): string {
  const lines: string[] = [];
  let size = 0;
  for (let line = 0; size < total; line++) {
    const text = `${stream} line ${line} ${["é", "中", "😀", "ok"][Math.floor(next() * 4)]}\n`;
    lines.push(text);
    size += encoder.encode(text).length;
  }
  const text = lines.join("");
  const bytes = encoder.encode(text);
  let at = 0;
  while (at < bytes.length) {
    // Chunks split anywhere would not be valid UTF-8; the pump appends whole characters.
    let end = Math.min(bytes.length, at + 1 + Math.floor(next() * 70_000));
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end++;
    log.append(stream, bytes.slice(at, end));
    at = end;
  }
  return text;
}

Deno.test("20 MB through a spooled log read back byte for byte, then deleted", async () => {
  await withRoot(async (root) => {
    await using spool = openTestSpool(root);
    const log = new OutputLog({ capacityBytes: 262_144, spool: spool.forExecution() });
    const next = random(SEED);
    const stdout = feed(log, "stdout", 15_000_000, next);
    const stderr = feed(log, "stderr", 5_000_000, next);
    assert.ok(spool.usedBytes > 19_000_000, `only ${spool.usedBytes} bytes on disk`);
    const read = drain(log);
    assert.equal(read.stdout.length, stdout.length);
    assert.ok(read.stdout === stdout, "stdout is every byte written, in order");
    assert.ok(read.stderr === stderr, "stderr is every byte written, in order");
    assert.equal(log.read({ startSeq: 1, maxBytes: 10 }).evicted, false);
    // The newest lines come from the memory cache, older ones from disk; a tail crosses both.
    const start = log.tailStart({ lines: 20_000, maxBytes: 10 * MIB, streams: "stdout" });
    const tail = log.read({ startSeq: start, maxBytes: 10 * MIB, streams: "stdout" }).stdout;
    assert.ok(stdout.endsWith(tail) && tail.split("\n").length === 20_001);
    const [directory] = [...Deno.readDirSync(spool.directory!)];
    assert.ok(directory.isDirectory);
    log.close();
    assert.equal(spool.usedBytes, 0);
    assert.deepEqual([...Deno.readDirSync(spool.directory!)], []);
    assert.equal(drain(log).stdout, stdout.slice(-drain(log).stdout.length), "the cache stays");
  });
});

Deno.test("max_spool_bytes evicts the oldest bytes and deletes whole segments", async () => {
  await withRoot(async (root) => {
    await using spool = openTestSpool(root, {
      maxStreamBytes: 256 * 1024,
      segmentBytes: 32 * 1024,
    });
    const log = new OutputLog({ capacityBytes: 16 * 1024, spool: spool.forExecution() });
    const text = feed(log, "stdout", 2 * MIB, random(SEED + 1));
    const page = log.read({ startSeq: 1, maxBytes: 100 });
    assert.equal(page.evicted, true);
    assert.equal(page.evictedBy, "max_spool_bytes");
    const kept = drain(log).stdout;
    assert.equal(kept, text.slice(text.length - kept.length), "the newest bytes are kept");
    const keptBytes = encoder.encode(kept).length;
    assert.ok(keptBytes <= 256 * 1024 && keptBytes >= 256 * 1024 - 3, `kept ${keptBytes}`);
    assert.ok(spool.usedBytes <= 256 * 1024 + 2 * 32 * 1024 + 131_072, `${spool.usedBytes}`);
    log.close();
  });
});

Deno.test("the server-wide total drops the oldest segments of any execution", async () => {
  await withRoot(async (root) => {
    await using spool = openTestSpool(root, { maxTotalBytes: 512 * 1024, segmentBytes: 64 * 1024 });
    const older = new OutputLog({ capacityBytes: 8 * 1024, spool: spool.forExecution() });
    const newer = new OutputLog({ capacityBytes: 8 * 1024, spool: spool.forExecution() });
    const next = random(SEED + 2);
    const olderText = feed(older, "stdout", 300_000, next);
    assert.equal(older.read({ startSeq: 1, maxBytes: 10 }).evicted, false);
    const newerText = feed(newer, "stderr", MIB, next);
    assert.ok(spool.usedBytes <= 512 * 1024, `${spool.usedBytes} bytes on disk`);
    const page = older.read({ startSeq: 1, maxBytes: 10 });
    assert.equal(page.evicted, true);
    assert.equal(page.evictedBy, "max_spool_total_bytes");
    const kept = drain(older).stdout;
    assert.equal(kept, olderText.slice(olderText.length - kept.length));
    assert.ok(newerText.endsWith(drain(newer).stderr));
    older.close();
    newer.close();
    assert.equal(spool.usedBytes, 0);
  });
});

Deno.test("more segment files than may be open at once are still read correctly", async () => {
  await withRoot(async (root) => {
    await using spool = openTestSpool(root, { maxOpenFiles: 2, segmentBytes: 16 * 1024 });
    const next = random(SEED + 3);
    const logs = Array.from(
      { length: 6 },
      () => new OutputLog({ capacityBytes: 1024, spool: spool.forExecution() }),
    );
    const texts = ["", "", "", "", "", ""];
    for (let round = 0; round < 4; round++) {
      logs.forEach((log, index) => texts[index] += feed(log, "stdout", 50_000, next));
    }
    logs.forEach((log, index) =>
      assert.ok(drain(log, 7_777).stdout === texts[index], `log ${index}`)
    );
    for (const log of logs) log.close();
  });
});

Deno.test("a closed spool deletes its directory and later executions stay in memory", async () => {
  await withRoot(async (root) => {
    const spool = openTestSpool(root);
    const log = new OutputLog({ capacityBytes: 1024, spool: spool.forExecution() });
    feed(log, "stdout", 100_000, random(SEED + 4));
    await spool.close();
    assert.deepEqual([...Deno.readDirSync(root)], []);
    log.append("stdout", encoder.encode("after shutdown\n"));
    assert.ok(drain(log).stdout.endsWith("after shutdown\n"), "the cache still answers");
    const later = new OutputLog({ capacityBytes: 1024, spool: spool.forExecution() });
    assert.equal(later.spooled, false);
    assert.equal(later.spoolProblem, "The server is shutting down");
    log.close();
    await spool.close();
  });
});

posix.test("deferred housekeeping leaves dead servers' directories until housekeep()", async () => {
  await withRoot(async (root) => {
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    Deno.mkdirSync(`${root}/${dead.pid}/1`, { recursive: true });
    let probes = 0;
    const counting = { ...quietDisk, space: () => (probes++, Promise.resolve(null)) };
    await using spool = openTestSpool(root, { disk: counting, deferHousekeeping: true });
    assert.equal(spool.problem, null);
    assert.deepEqual([...Deno.readDirSync(`${root}/${Deno.pid}`)], [], "ours is made at once");
    assert.deepEqual(spool.staleRemoved, []);
    assert.equal(probes, 0, "no free-space probe before housekeeping");
    assert.ok(Deno.statSync(`${root}/${dead.pid}`).isDirectory, "the dead one is still there");
    assert.deepEqual(spool.housekeep(), [`${root}/${dead.pid}`]);
    assert.throws(() => Deno.statSync(`${root}/${dead.pid}`), Deno.errors.NotFound);
    assert.equal(probes, 1, "housekeeping measures the space");
    assert.deepEqual(spool.housekeep(), [`${root}/${dead.pid}`], "once; the same answer again");
    assert.deepEqual(spool.staleRemoved, [`${root}/${dead.pid}`]);
    assert.equal(probes, 1);
  });
});

Deno.test("with housekeeping deferred, the first execution measures the free space", async () => {
  await withRoot(async (root) => {
    let probes = 0;
    const counting = { ...quietDisk, space: () => (probes++, Promise.resolve(null)) };
    await using spool = openTestSpool(root, { disk: counting, deferHousekeeping: true });
    assert.equal(probes, 0);
    spool.forExecution();
    assert.equal(probes, 1);
    spool.forExecution();
    spool.housekeep();
    assert.equal(probes, 1, "measured once until more is written");
  });
});

posix.test("stale spool directories of dead servers are removed at start, live ones kept", async () => {
  await withRoot(async (root) => {
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    const live = new Deno.Command("sleep", { args: ["60"] }).spawn();
    try {
      for (const name of [String(dead.pid), String(live.pid), String(Deno.pid), "notes"]) {
        Deno.mkdirSync(`${root}/${name}/1`, { recursive: true });
        Deno.writeTextFileSync(`${root}/${name}/1/stdout-000001.seg`, "old");
      }
      await using spool = openTestSpool(root);
      assert.equal(spool.problem, null);
      assert.deepEqual(spool.staleRemoved, [`${root}/${dead.pid}`]);
      const names = [...Deno.readDirSync(root)].map((entry) => entry.name).sort();
      assert.deepEqual(names, [String(live.pid), String(Deno.pid), "notes"].sort());
      assert.deepEqual([...Deno.readDirSync(`${root}/${Deno.pid}`)], [], "ours starts empty");
      assert.equal(Deno.statSync(`${root}/${Deno.pid}`).mode! & 0o777, 0o700);
    } finally {
      live.kill("SIGKILL");
      await live.status;
    }
  });
});

posix.test("a spool directory that cannot be used leaves output in memory, with the reason", async (t) => {
  await withRoot(async (root) => {
    const check = (spool: Spool, reason: RegExp) => {
      assert.equal(spool.directory, null);
      assert.match(spool.problem!, /^Output is kept in memory only, as the spool directory /);
      assert.match(spool.problem!, reason);
      assert.match(
        spool.problem!,
        /set spool_dir \(YIELDSHELL_SPOOL_DIR\) to a writable directory/,
      );
      const log = new OutputLog({ capacityBytes: 8, spool: spool.forExecution() });
      log.append("stdout", encoder.encode("0123456789"));
      assert.equal(log.spooled, false);
      assert.equal(log.spoolProblem, spool.problem);
      const page = log.read({ startSeq: 1, maxBytes: 100 });
      assert.deepEqual([page.stdout, page.evicted, page.evictedBy], ["23456789", true, undefined]);
    };
    await t.step("a file in the way", async () => {
      Deno.writeTextFileSync(`${root}/file`, "");
      await using spool = openTestSpool(`${root}/file`);
      check(spool, /is not a directory/);
    });
    await t.step("a symbolic link", async () => {
      Deno.mkdirSync(`${root}/real`);
      Deno.symlinkSync(`${root}/real`, `${root}/link`);
      await using spool = openTestSpool(`${root}/link`);
      check(spool, /a symbolic link or a file is refused/);
    });
    if (Deno.uid() === 0) {
      await t.step("a directory of another user", async () => {
        Deno.mkdirSync(`${root}/theirs`);
        Deno.chownSync(`${root}/theirs`, 65_534, 65_534);
        await using spool = openTestSpool(`${root}/theirs`);
        check(spool, /belongs to another user/);
        assert.deepEqual([...Deno.readDirSync(`${root}/theirs`)], [], "nothing left behind");
      });
    }
  });
});

posix.test("without write permission the server keeps output in memory and says why", async () => {
  await withRoot(async (root) => {
    const { problem } = await runProbe(
      root,
      (src) =>
        `import { Spool } from "${src}core/spool.ts";
import { createSpoolDisk } from "${src}platform/spool_disk.ts";
const spool = Spool.open({ disk: createSpoolDisk({ windows: false }), root: "${root}/spool",
  pid: Deno.pid, maxStreamBytes: 1e9, maxTotalBytes: 1e9 });
console.log(JSON.stringify({ problem: spool.problem }));
await spool.close();
`,
      ["--allow-read"],
    );
    assert.match(problem, /Requires write access to/);
    assert.match(problem, /set spool_dir \(YIELDSHELL_SPOOL_DIR\)/);
  });
});

/**
 * Runs a script (made from the `src/` URL) with `permissions` in a process of its own; returns
 * the JSON it printed.
 */
async function runProbe(
  root: string,
  source: (src: string) => string,
  permissions: string[],
  // deno-lint-ignore no-explicit-any
): Promise<Record<string, any>> {
  const script = `${root}/probe.ts`;
  Deno.writeTextFileSync(script, source(new URL("../../src/", import.meta.url).href));
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-lock", ...permissions, script],
    stderr: "inherit",
  }).output();
  assert.ok(success);
  return JSON.parse(decoder.decode(stdout));
}

/** Mounts a tmpfs of `sizeBytes` for the test (Linux, root), unmounting it afterwards. */
async function withTmpfs(sizeBytes: number, fn: (mount: string) => Promise<void>): Promise<void> {
  await withRoot(async (root) => {
    const mount = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", `size=${sizeBytes}`, "tmpfs", root],
    }).output();
    assert.ok(mount.success, decoder.decode(mount.stderr));
    try {
      await fn(root);
    } finally {
      await new Deno.Command("umount", { args: [root] }).output();
    }
  });
}

Deno.test({
  name:
    "a full disk stops spooling that stream; its memory cache keeps the newest output (Linux, root: mounts a tmpfs)",
  ignore: !CAN_MOUNT,
  fn: async () => {
    await withTmpfs(2 * MIB, async (mount) => {
      // Free space is measured at start; the disk then fills behind the spool's back.
      await using spool = openTestSpool(mount, {
        disk: realDisk,
        freeMarginBytes: 0,
        segmentBytes: 64 * 1024,
      });
      await spool.refreshSpace();
      Deno.writeFileSync(`${mount}/filler`, new Uint8Array(2 * MIB - 256 * 1024));
      const log = new OutputLog({ capacityBytes: 64 * 1024, spool: spool.forExecution() });
      const text = feed(log, "stdout", MIB, random(SEED + 5));
      assert.match(
        log.spoolProblem!,
        /^Spooling stdout to disk failed \(.*No space left on device/,
      );
      assert.match(log.spoolProblem!, /it keeps only its newest bytes in memory$/);
      const page = log.read({ startSeq: 1, maxBytes: 10 });
      assert.deepEqual([page.evicted, page.evictedBy], [true, "max_buffer_bytes"]);
      const kept = drain(log).stdout;
      const keptBytes = encoder.encode(kept).length;
      assert.ok(keptBytes > 64 * 1024 - 4 && keptBytes <= 64 * 1024, `kept ${keptBytes}`);
      assert.equal(kept, text.slice(text.length - kept.length), "the newest bytes are intact");
      assert.equal(spool.usedBytes, 0, "the failed stream's files are deleted");
      // The other stream, and later executions, spool again once there is room.
      Deno.removeSync(`${mount}/filler`);
      const stderr = feed(log, "stderr", 300_000, random(SEED + 6));
      assert.equal(drain(log).stderr, stderr);
      assert.ok(spool.usedBytes > 200_000);
      log.close();
    });
  },
});

Deno.test({
  name: "a short disk lowers the total below max_spool_total_bytes (Linux, root: mounts a tmpfs)",
  ignore: !CAN_MOUNT,
  fn: async () => {
    await withTmpfs(4 * MIB, async (mount) => {
      Deno.writeFileSync(`${mount}/filler`, new Uint8Array(2 * MIB + 512 * 1024));
      await using spool = openTestSpool(mount, {
        disk: realDisk,
        freeMarginBytes: 512 * 1024,
        segmentBytes: 64 * 1024,
      });
      await spool.refreshSpace();
      assert.ok(
        spool.allowedBytes > 700 * 1024 && spool.allowedBytes <= MIB,
        `${spool.allowedBytes}`,
      );
      const log = new OutputLog({ capacityBytes: 32 * 1024, spool: spool.forExecution() });
      const text = feed(log, "stdout", 3 * MIB, random(SEED + 7));
      assert.equal(log.spoolProblem, null, "eviction came before the disk was full");
      assert.ok(spool.usedBytes <= spool.allowedBytes);
      const page = log.read({ startSeq: 1, maxBytes: 10 });
      assert.deepEqual([page.evicted, page.evictedBy], [true, "free_space"]);
      const kept = drain(log).stdout;
      assert.ok(encoder.encode(kept).length > 600 * 1024);
      assert.equal(kept, text.slice(text.length - kept.length));
      log.close();
    });
  },
});

posix.test("with deno.json's server permissions the spool writes its default directory and a search runs", async () => {
  await withRoot(async (root) => {
    const config = new URL("../../deno.json", import.meta.url).pathname;
    const result = await runProbe(
      root,
      (src) =>
        `import { OutputLog } from "${src}core/output_log.ts";
import { Searcher } from "${src}core/search.ts";
import { Spool } from "${src}core/spool.ts";
import { currentSpoolDisk } from "${src}platform/mod.ts";
const { disk, defaultRoot } = currentSpoolDisk({});
const spool = Spool.open({ disk, root: defaultRoot, pid: Deno.pid, maxStreamBytes: 1e9, maxTotalBytes: 1e9 });
const log = new OutputLog({ capacityBytes: 1024, spool: spool.forExecution() });
for (let i = 0; i < 2000; i++) log.append("stdout", new TextEncoder().encode("line " + i + "\\n"));
using searcher = new Searcher();
const found = await searcher.search(log, { pattern: "^line 7$", maxOutputBytes: 999 });
let elsewhere = "written";
try { Deno.writeTextFileSync("${root}/elsewhere", "x"); } catch (error) { elsewhere = error.name; }
console.log(JSON.stringify({ problem: spool.problem, logProblem: log.spoolProblem,
  used: spool.usedBytes, line: found.matches[0]?.line, elsewhere }));
log.close();
await spool.close();
`,
      ["--config", config, "-P=server"],
    );
    assert.equal(result.problem, null);
    assert.equal(result.logProblem, null);
    assert.ok(result.used > 5_000, "output went to /tmp/yieldshell-spool");
    assert.equal(result.line, 8);
    assert.equal(result.elsewhere, "NotCapable", "nothing else may be written");
  });
});
