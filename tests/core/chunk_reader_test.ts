import assert from "node:assert/strict";
import { ChunkReader } from "../../src/core/chunk_reader.ts";

async function chunksOf(readable: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const reader = new ChunkReader(readable);
  const chunks: Uint8Array[] = [];
  for (let chunk = await reader.read(); chunk !== null; chunk = await reader.read()) {
    chunks.push(chunk);
  }
  return chunks;
}

Deno.test("a pipe's chunks are exact-size copies, however large the read buffer", async () => {
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", "printf abc; sleep 0.05; head -c 100000 /dev/zero"],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const chunks = await chunksOf(child.stdout);
  await child.status;
  assert.equal(new TextDecoder().decode(chunks[0]), "abc");
  for (const chunk of chunks) {
    assert.equal(chunk.buffer.byteLength, chunk.byteLength, "a chunk pins no larger buffer");
  }
  assert.equal(chunks.reduce((total, chunk) => total + chunk.byteLength, 0), 100_003);
  // Reads start at 4 KiB and grow once output flows, so a flood is not read 4 KiB at a time.
  assert.ok(chunks.some((chunk) => chunk.byteLength > 4096));
});

Deno.test("a plain stream (a fake process) is read as it comes", async () => {
  const parts = [new Uint8Array([1, 2]), new Uint8Array([3])];
  assert.deepEqual(await chunksOf(ReadableStream.from(parts)), parts);
});

Deno.test("cancel ends a pending read of a pipe as the end of the stream", async () => {
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", "exec sleep 30"],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const reader = new ChunkReader(child.stdout);
    const pending = reader.read();
    await reader.cancel();
    assert.equal(await pending, null);
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
});
