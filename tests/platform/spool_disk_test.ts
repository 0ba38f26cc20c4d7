import assert from "node:assert/strict";
import type { SpoolDisk } from "../../src/core/spool_port.ts";
import { currentSpoolDisk } from "../../src/platform/mod.ts";
import { createSpoolDisk, defaultSpoolRoot, parseDf } from "../../src/platform/spool_disk.ts";
import { ON_WINDOWS, posix } from "../os.ts";

// The adapter fits the core's port (checked by the type checker).
const disk: SpoolDisk = createSpoolDisk({ windows: ON_WINDOWS });

Deno.test("the default spool directory is yieldshell-spool in the system temp directory", () => {
  assert.equal(defaultSpoolRoot({}, false), "/tmp/yieldshell-spool");
  // The server's write grant names this path; a per-user TMPDIR would fall outside it.
  assert.equal(defaultSpoolRoot({ TMPDIR: "/var/folders/x/T/" }, false), "/tmp/yieldshell-spool");
  assert.equal(defaultSpoolRoot({ TEMP: "C:\\Temp" }, true), "C:\\Temp\\yieldshell-spool");
  assert.equal(defaultSpoolRoot({ TMP: "D:\\t\\" }, true), "D:\\t\\yieldshell-spool");
  assert.match(currentSpoolDisk({}).defaultRoot, /yieldshell-spool$/);
});

Deno.test("df -Pk output gives the free and total bytes", () => {
  const linux = "Filesystem     1024-blocks     Used Available Capacity Mounted on\n" +
    "/dev/vda         264212084 23026160  83364752      22% /\n";
  assert.deepEqual(parseDf(linux), {
    totalBytes: 264_212_084 * 1024,
    availableBytes: 83_364_752 * 1024,
  });
  const spaced = "Filesystem 1024-blocks Used Available Capacity Mounted on\n" +
    "map auto_home   0   0   0   100% /System/Volumes/Data/home dir\n";
  assert.deepEqual(parseDf(spaced), { totalBytes: 0, availableBytes: 0 });
  assert.equal(parseDf("df: /nowhere: No such file or directory\n"), null);
  assert.equal(parseDf(""), null);
});

Deno.test("spool files append at the end and read at any position", async () => {
  const root = await Deno.makeTempDir();
  try {
    const path = disk.join(root, "a.seg");
    const file = disk.create(path);
    file.append(new TextEncoder().encode("hello "));
    const into = new Uint8Array(3);
    assert.equal(file.readAt(1, into), 3);
    assert.equal(new TextDecoder().decode(into), "ell");
    file.append(new TextEncoder().encode("world"));
    const all = new Uint8Array(20);
    assert.equal(file.readAt(0, all), 11, "a read past the end returns what there is");
    assert.equal(new TextDecoder().decode(all.subarray(0, 11)), "hello world");
    file.close();
    file.close();
    assert.throws(() => disk.create(path), Deno.errors.AlreadyExists);
    const again = disk.open(path);
    again.append(new TextEncoder().encode("!"));
    assert.equal(again.readAt(11, into), 1);
    again.close();
    disk.remove(path);
    disk.remove(path);
    assert.deepEqual(disk.list(root), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

posix.test("spool directories are private and checked", async () => {
  const root = await Deno.makeTempDir();
  try {
    const nested = disk.join(disk.join(root, "a"), "b");
    disk.ensureDirectory(nested);
    disk.ensureDirectory(nested);
    assert.equal(Deno.statSync(nested).mode! & 0o777, 0o700);
    assert.equal(disk.ownerOf(nested), Deno.statSync(root).uid);
    disk.makeDirectory(disk.join(root, "c"));
    assert.equal(Deno.statSync(disk.join(root, "c")).mode! & 0o777, 0o700);
    assert.throws(() => disk.makeDirectory(disk.join(root, "c")), Deno.errors.AlreadyExists);
    Deno.symlinkSync(nested, disk.join(root, "link"));
    assert.throws(() => disk.ensureDirectory(disk.join(root, "link")), /is not a directory/);
    disk.remove(disk.join(root, "a"));
    assert.deepEqual(disk.list(root).sort(), ["c", "link"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

posix.test("process liveness by pid, and free space by df", async () => {
  assert.equal(disk.isProcessAlive(Deno.pid), true);
  const child = new Deno.Command("true").spawn();
  await child.status;
  assert.equal(disk.isProcessAlive(child.pid), false);
  assert.equal(disk.isProcessAlive(0), true, "never a process group");
  const space = await disk.space(Deno.cwd());
  assert.ok(space !== null && space.totalBytes > 0 && space.availableBytes <= space.totalBytes);
  assert.equal(await disk.space("/no/such/dir"), null);
});
