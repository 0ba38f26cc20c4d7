import assert from "node:assert/strict";
import { type ConditionHit, watchConditions } from "../../src/core/condition_watch.ts";
import type { UntilArgs } from "../../src/contract/arguments.ts";
import { parseUntil } from "../../src/core/conditions.ts";
import { createPortProbe } from "../../src/platform/port_probe.ts";
import { RegexWorker } from "../../src/core/regex_worker.ts";
import { posix } from "../os.ts";
import { spawnOutputSource } from "./process_output_source.ts";

function watch(source: Parameters<typeof watchConditions>[0], until: UntilArgs) {
  const decision = parseUntil(until);
  if (!decision.ok) throw new Error(decision.error);
  const regex = new RegexWorker();
  const watching = watchConditions(source, decision.conditions, {
    cursorSeq: 1,
    regex,
    probe: createPortProbe(),
  });
  return {
    result: watching.result,
    [Symbol.dispose]: () => {
      watching.close();
      regex.close();
    },
  };
}

posix.test("real process: a line printed after a delay ends the watch while the process runs on", async () => {
  // The line carries its own timestamp (epoch ns); the process then keeps running.
  await using child = spawnOutputSource(
    'sleep 0.3; echo "booting"; echo "listening at $(date +%s%N)"; exec sleep 30',
  );
  using watching = watch(child.source, { output: "listening at (\\d+)" });
  const hit = await watching.result;
  const resolvedAt = performance.timeOrigin + performance.now();
  assert.equal(hit?.kind, "output");
  const { text } = hit as Extract<ConditionHit, { kind: "output" }>;
  const printedAt = Number(text.slice(-19, -6)) + Number(text.slice(-6)) / 1e6;
  console.log(
    `real process: watch resolved ${(resolvedAt - printedAt).toFixed(1)} ms after the line`,
  );
  assert.equal(child.source.ended, false, "resolved at the line, not at exit");
});

posix.test("real process: idle holds for a program waiting at a prompt on stdin", async () => {
  await using child = spawnOutputSource('printf "Name: "; read name; echo "hello $name"');
  using watching = watch(child.source, { idle_ms: 200 });
  const hit = await watching.result;
  assert.equal(hit?.kind, "idle");
  assert.equal(child.source.ended, false, "still waiting for input");
  await child.write("yieldshell\n");
  await child.ended;
});

posix.test("real process: a port condition holds once python3 -m http.server listens", async () => {
  const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = free.addr as Deno.NetAddr;
  free.close();
  await using child = spawnOutputSource(
    `sleep 0.2; exec python3 -u -m http.server ${port} --bind 127.0.0.1`,
  );
  using watching = watch(child.source, { port, host: "127.0.0.1" });
  const hit = await watching.result;
  if (hit?.kind === "exit") {
    const stderr = [...child.source.chunksFrom("stderr", 1)].map((c) =>
      new TextDecoder().decode(c.bytes)
    );
    throw new Error(`http.server exited first: ${stderr.join("")}`);
  }
  assert.deepEqual(hit, { kind: "port", host: "127.0.0.1", port });
});
