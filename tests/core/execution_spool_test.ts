import assert from "node:assert/strict";
import { Execution } from "../../src/core/execution.ts";
import { openTestSpool } from "./spool_fixture.ts";

/** A process tree made of in-memory streams, for the members an Execution calls. */
function treeOf(chunks: Uint8Array[]) {
  return {
    pid: 4242,
    stdin: new WritableStream<Uint8Array>(),
    stdout: ReadableStream.from(chunks),
    stderr: ReadableStream.from<Uint8Array>([]),
    exited: Promise.resolve({ exitCode: 0, signal: null }),
    ended: Promise.resolve(),
    signal: () => Promise.resolve(),
    release() {},
  };
}

const clock = { nowMs: () => Date.now(), monotonicMs: () => performance.now() };

Deno.test("an execution spools its output and deletes it when disposed", async () => {
  const root = await Deno.makeTempDir({ prefix: "yieldshell-spool-execution-" });
  try {
    await using spool = openTestSpool(root);
    const lines = Array.from({ length: 50_000 }, (_, index) => `line ${index}\n`);
    const chunks = lines.map((line) => new TextEncoder().encode(line));
    const execution = new Execution({
      id: "exec_1",
      owner: "test",
      command: "seq",
      cwd: "/",
      name: null,
      tree: treeOf(chunks),
      spawnedMonoMs: clock.monotonicMs(),
      spawnedAtMs: clock.nowMs(),
      clock,
      logger: { warn() {} },
      capacityBytes: 4096,
      spool: spool.forExecution(),
      redaction: { text: (text: string) => text, stream: () => null },
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
