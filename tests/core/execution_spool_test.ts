import assert from "node:assert/strict";
import { Execution } from "../../src/core/execution.ts";
import { Spool } from "../../src/core/spool.ts";
import type { Platform } from "../../src/platform/types.ts";
import { createSpoolDisk } from "../../src/platform/spool_disk.ts";
import { ON_WINDOWS } from "../os.ts";

/** The members an Execution calls, for processes that are in-memory streams. */
const platform = {
  guard() {},
  releaseGroup() {},
  releaseToken() {},
  signalGroup: () => true,
  signalProcesses() {},
  isGroupAlive: () => Promise.resolve(false),
  findTokenHolders: () => Promise.resolve(new Map()),
} as unknown as Platform;

Deno.test("an execution spools its output and deletes it when disposed", async () => {
  const root = await Deno.makeTempDir({ prefix: "yieldshell-spool-execution-" });
  try {
    const disk = {
      ...createSpoolDisk({ windows: ON_WINDOWS }),
      space: () => Promise.resolve(null),
    };
    await using spool = Spool.open({
      disk,
      root,
      pid: Deno.pid,
      maxStreamBytes: 1 << 30,
      maxTotalBytes: 2 ** 32,
    });
    const lines = Array.from({ length: 50_000 }, (_, index) => `line ${index}\n`);
    const chunks = lines.map((line) => new TextEncoder().encode(line));
    const execution = new Execution({
      id: "exec_1",
      owner: "test",
      command: "seq",
      cwd: "/",
      name: null,
      token: "token",
      process: {
        pid: 4242,
        stdin: new WritableStream(),
        stdout: ReadableStream.from(chunks),
        stderr: ReadableStream.from<Uint8Array>([]),
        exited: Promise.resolve({ exitCode: 0, signal: null }),
      },
      platform,
      capacityBytes: 4096,
      spool: spool.forExecution(),
      secrets: [],
      timeoutMs: 0,
      timeoutGraceMs: 0,
    });
    await execution.finished;
    const page = execution.log.read({ startSeq: 1, maxBytes: 10_000_000 });
    assert.equal(page.stdout, lines.join(""), "the whole output, most of it from disk");
    assert.equal(page.evicted, false);
    assert.ok(spool.usedBytes > 300_000);
    execution.dispose();
    assert.equal(spool.usedBytes, 0);
    assert.deepEqual([...Deno.readDirSync(spool.directory!)], []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
