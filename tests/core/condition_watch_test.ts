import assert from "node:assert/strict";
import type { OutputSource, PortProbe } from "../../src/core/condition_ports.ts";
import { type ConditionHit, watchConditions } from "../../src/core/condition_watch.ts";
import { TAIL_GRACE_MS } from "../../src/core/output_matcher.ts";
import type { UntilArgs } from "../../src/contract/arguments.ts";
import { type Conditions, parseUntil } from "../../src/core/conditions.ts";
import { createPortProbe } from "../../src/platform/port_probe.ts";
import { RegexWorker } from "../../src/core/regex_worker.ts";
import { ManualClock } from "./manual_clock.ts";
import { systemClock } from "../../src/core/clock.ts";
import { MemoryOutputSource } from "./memory_output_source.ts";

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text).length;

function conditions(until: UntilArgs): Conditions {
  const decision = parseUntil(until);
  if (!decision.ok) throw new Error(decision.error);
  return decision.conditions;
}

/** A probe for tests that never touch the network. */
const NO_NETWORK: PortProbe = {
  accepts: () => Promise.resolve(false),
  unavailable: () => null,
};

/** Whether `promise` settled once pending callbacks and microtasks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => done = true, () => done = true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

function setup(until: UntilArgs, cursorSeq = 1) {
  const clock = new ManualClock();
  const source = new MemoryOutputSource({ clock });
  const regex = new RegexWorker();
  return {
    clock,
    source,
    regex,
    watch: (probe: PortProbe = NO_NETWORK) =>
      watchConditions(source, conditions(until), { cursorSeq, regex, probe, clock }),
    [Symbol.dispose]: () => regex.close(),
  };
}

function output(hit: ConditionHit | null) {
  assert.equal(hit?.kind, "output", `expected an output match, got ${JSON.stringify(hit)}`);
  return hit as Extract<ConditionHit, { kind: "output" }>;
}

Deno.test("output: a match split across chunks of one stream, interleaved with the other, reports its own position", async () => {
  using t = setup({ output: "listening on \\d+" });
  const watch = t.watch();
  const first = t.source.append("stdout", "booting\nlis");
  t.source.append("stderr", "warning: noise\n");
  t.source.append("stdout", "tening on 30");
  t.source.append("stdout", "00\nmore output\n");
  const hit = output(await watch.result);
  assert.equal(hit.stream, "stdout");
  assert.equal(hit.text, "listening on 3000");
  assert.equal(hit.seq, first + bytesOf("booting\n"));
  // The page runs from the cursor through the matched line (stderr's bytes in between included).
  const lineEnd = t.source.latestSeq - bytesOf("more output\n");
  assert.deepEqual(hit.page, { startSeq: 1, endSeq: lineEnd });
});

Deno.test("output: a match across a line break and chunks", async () => {
  using t = setup({ output: "compiled\\nready" });
  const watch = t.watch();
  t.source.append("stdout", "compiled");
  t.source.append("stdout", "\nrea");
  t.source.append("stdout", "dy in 300 ms\n");
  const hit = output(await watch.result);
  assert.equal(hit.text, "compiled\nready");
  assert.equal(hit.seq, 1);
  assert.equal(hit.page.endSeq, t.source.latestSeq);
});

Deno.test("output: positions count UTF-8 bytes of multi-byte characters", async () => {
  using t = setup({ output: "ready" });
  const watch = t.watch();
  t.source.append("stdout", "ééé 🚀 ");
  t.source.append("stdout", "ready\n");
  const hit = output(await watch.result);
  assert.equal(hit.seq, 1 + bytesOf("ééé 🚀 "));
  assert.equal(hit.page.endSeq, t.source.latestSeq);
});

Deno.test("output: ignore_case and ^ at a line start", async () => {
  using t = setup({ output: "^ready", ignore_case: true });
  const watch = t.watch();
  t.source.append("stdout", "not ready yet\n");
  const second = t.source.append("stdout", "READY\n");
  const hit = output(await watch.result);
  assert.equal(hit.seq, second);
  assert.equal(hit.text, "READY");
});

Deno.test("output: an unterminated matched line ends the page where the output ends", async () => {
  using t = setup({ output: "Password:" });
  const watch = t.watch();
  t.source.append("stdout", "login\nPassword: ");
  // An unterminated line is matched once it has been quiet briefly, not half-written.
  while (t.clock.pending === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  t.clock.advance(TAIL_GRACE_MS - 1);
  assert.equal(await settled(watch.result), false);
  t.clock.advance(1);
  const hit = output(await watch.result);
  assert.deepEqual(hit.page, { startSeq: 1, endSeq: t.source.latestSeq });
});

Deno.test("output: $ does not match at the end of a half-written line", async () => {
  using t = setup({ output: "ready$" });
  const watch = t.watch();
  t.source.append("stdout", "ready");
  t.source.append("stdout", "ing the cache\n");
  const wanted = t.source.append("stdout", "ready\n");
  assert.equal(output(await watch.result).seq, wanted);
});

Deno.test("output: a carriage return ends a progress line, so it is matched at once", async () => {
  using t = setup({ output: "100%" });
  const watch = t.watch();
  t.source.append("stdout", "downloading 45%\r");
  const wanted = t.source.append("stdout", "downloading 100%\r");
  assert.equal(output(await watch.result).seq, wanted + bytesOf("downloading "));
});

Deno.test("output: scope new looks after the cursor only, scope all at everything retained", async (t) => {
  await t.step("new", async () => {
    using s = setup({ output: "ready" }, 1 + bytesOf("ready (old)\n"));
    s.source.append("stdout", "ready (old)\n");
    const watch = s.watch();
    const fresh = s.source.append("stdout", "ready (new)\n");
    const hit = output(await watch.result);
    assert.equal(hit.seq, fresh);
    assert.deepEqual(hit.page, { startSeq: fresh, endSeq: s.source.latestSeq });
  });
  await t.step("all", async () => {
    const cursor = 1 + bytesOf("ready (old)\n");
    using s = setup({ output: "ready", scope: "all" }, cursor);
    s.source.append("stdout", "ready (old)\n");
    const hit = output(await s.watch().result);
    assert.equal(hit.seq, 1);
    // The matched line was already returned: the page from the cursor is empty.
    assert.deepEqual(hit.page, { startSeq: cursor, endSeq: cursor });
  });
});

Deno.test("output: streams narrows the match to one stream", async () => {
  using t = setup({ output: "error", streams: "stderr" });
  const watch = t.watch();
  t.source.append("stdout", "no error here on stdout\n");
  const wanted = t.source.append("stderr", "error: disk full\n");
  const hit = output(await watch.result);
  assert.equal(hit.stream, "stderr");
  assert.equal(hit.seq, wanted);
});

Deno.test("output: holds at once over output captured before the watch", async () => {
  using t = setup({ output: "listening" });
  t.source.append("stdout", "server listening\n");
  const hit = output(await t.watch().result);
  assert.equal(hit.seq, 1 + bytesOf("server "));
});

Deno.test("output: a chunk larger than one attempt is scanned in slices, matches across slices found", async () => {
  using t = setup({ output: "listening on \\d+" });
  const watch = t.watch();
  // No newline to cut at: the slice boundary (16384) falls inside "listening".
  const before = "x".repeat(16_380);
  t.source.append("stdout", `${before}listening on 8080 ${"y".repeat(30_000)}`);
  const hit = output(await watch.result);
  assert.equal(hit.seq, 1 + before.length);
  assert.equal(hit.text, "listening on 8080");
});

Deno.test("output: randomized chunkings of the same output all find the match at the same position", async () => {
  const seed = Number(Deno.env.get("YIELDSHELL_TEST_SEED") ?? 15_015);
  console.log(`condition watch: chunking seed ${seed} (YIELDSHELL_TEST_SEED replays another)`);
  let state = seed >>> 0;
  const random = (below: number) => {
    // mulberry32: small, seedable, good enough to pick split points.
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return (((x ^ (x >>> 14)) >>> 0) % below);
  };
  const prefix = "starting é…\n".repeat(40) + "dev server 🚀 ";
  const text = `${prefix}ready in 312 ms\nwatching\n`;
  const characters = [...text];
  let matched = 0;
  for (let run = 0; run < 25; run++) {
    using t = setup({ output: "ready in \\d+ ms" });
    const watch = t.watch();
    let index = 0;
    while (index < characters.length) {
      const length = 1 + random(12);
      const piece = characters.slice(index, index + length).join("");
      t.source.append(random(4) === 0 ? "stderr" : "stdout", piece);
      index += length;
    }
    t.source.end();
    const hit = await watch.result;
    // A split that sends part of the match to the other stream breaks it: then it must not match.
    if (hit?.kind === "output") {
      matched++;
      assert.equal(hit.text, "ready in 312 ms", `seed ${seed} run ${run}`);
      assert.equal(hit.seq, 1 + bytesOf(prefix), `seed ${seed} run ${run}`);
    } else {
      assert.deepEqual(hit, { kind: "exit" }, `seed ${seed} run ${run}`);
    }
  }
  assert.ok(matched > 0, `seed ${seed}: no chunking kept the match in one stream`);
});

Deno.test("output: a match stays whole when the other stream writes between its pieces", async () => {
  using t = setup({ output: "ready in \\d+ ms" });
  const watch = t.watch();
  for (const piece of ["re", "ady", " in", " 3", "12", " m", "s\n"]) {
    t.source.append("stderr", "tick\n");
    t.source.append("stdout", piece);
  }
  const hit = output(await watch.result);
  assert.equal(hit.text, "ready in 312 ms");
});

Deno.test("exit: an execution that already ended answers at once: a match in its output, else exit", async (t) => {
  await t.step("match wins", async () => {
    using s = setup({ output: "done" });
    s.source.append("stdout", "work\ndone\n");
    s.source.end();
    assert.equal(output(await s.watch().result).seq, 1 + bytesOf("work\n"));
  });
  await t.step("exit", async () => {
    using s = setup({ output: "never", idle_ms: 1 });
    s.source.append("stdout", "work\n");
    s.source.end();
    assert.deepEqual(await s.watch().result, { kind: "exit" });
  });
});

Deno.test("exit: ends the watch after the final output was scanned", async () => {
  using t = setup({ output: "finished" });
  const watch = t.watch();
  t.source.append("stdout", "working\n");
  t.source.append("stdout", "finished\n");
  t.source.end();
  // The last line arrived before the exit: it is reported, not the exit.
  assert.equal(output(await watch.result).text, "finished");
  using u = setup({ output: "finished" });
  const second = u.watch();
  u.source.append("stdout", "crashed\n");
  u.source.end();
  assert.deepEqual(await second.result, { kind: "exit" });
});

Deno.test("exit: with no conditions only exit ends the watch", async () => {
  using t = setup({});
  const watch = t.watch();
  t.source.append("stdout", "lots of output\n");
  assert.equal(await settled(watch.result), false);
  t.source.end();
  assert.deepEqual(await watch.result, { kind: "exit" });
});

Deno.test("bytes: counts new bytes of the watched streams from the cursor", async () => {
  using t = setup({ bytes: 10, streams: "stdout" }, 5);
  t.source.append("stdout", "old!");
  const watch = t.watch();
  t.source.append("stdout", "1234");
  t.source.append("stderr", "ignored stderr bytes");
  assert.equal(await settled(watch.result), false);
  const last = t.source.append("stdout", "567890ab");
  // The 10th new byte is "0", the 6th byte of the last chunk.
  assert.deepEqual(await watch.result, { kind: "bytes", bytes: 12, seq: last + 6 });
});

Deno.test("bytes: retained bytes after the cursor count at once", async () => {
  using t = setup({ bytes: 3 });
  t.source.append("stdout", "ab");
  t.source.append("stderr", "cd");
  assert.deepEqual(await t.watch().result, { kind: "bytes", bytes: 4, seq: 4 });
});

Deno.test("idle: holds once the output has been quiet for idle_ms on the injected clock", async () => {
  using t = setup({ idle_ms: 500 });
  t.source.append("stdout", "Password: ");
  const watch = t.watch();
  t.clock.advance(300);
  t.source.append("stdout", "(still typing) ");
  t.clock.advance(300);
  assert.equal(await settled(watch.result), false, "output 300 ms ago resets the quiet time");
  t.clock.advance(199);
  assert.equal(await settled(watch.result), false);
  t.clock.advance(1);
  assert.deepEqual(await watch.result, { kind: "idle", idleMs: 500 });
  assert.equal(t.clock.pending, 0);
});

Deno.test("idle: holds at once when the output is already quiet long enough", async () => {
  using t = setup({ idle_ms: 1000 });
  t.source.append("stdout", "> ");
  t.clock.advance(5000);
  assert.deepEqual(await t.watch().result, { kind: "idle", idleMs: 5000 });
});

Deno.test("port: holds once a real loopback listener accepts, not before", async () => {
  // Find a free port, then listen on it only after some probes were refused.
  const probeListener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = probeListener.addr as Deno.NetAddr;
  probeListener.close();
  using regex = new RegexWorker();
  const real = createPortProbe();
  let refused = 0;
  const probe: PortProbe = {
    unavailable: (host) => real.unavailable(host),
    accepts: async (host, probePort) => {
      const open = await real.accepts(host, probePort);
      if (!open && host === "127.0.0.1") refused++;
      return open;
    },
  };
  const source = new MemoryOutputSource({ clock: { ...systemClock, setTimer: () => () => {} } });
  const watch = watchConditions(source, conditions({ port, host: "127.0.0.1" }), {
    cursorSeq: 1,
    regex,
    probe,
  });
  let listener: Deno.Listener | null = null;
  try {
    while (refused < 3) await Promise.race([watch.result, new Promise((r) => setTimeout(r, 10))]);
    assert.equal(await settled(watch.result), false);
    listener = Deno.listen({ hostname: "127.0.0.1", port });
    const accepting = (async () => {
      for await (const connection of listener) connection.close();
    })();
    assert.deepEqual(await watch.result, { kind: "port", host: "127.0.0.1", port });
    listener.close();
    await accepting.catch(() => {});
  } finally {
    watch.close();
    try {
      listener?.close();
    } catch { /* closed */ }
  }
});

Deno.test("port: localhost probes 127.0.0.1 and ::1, either one holds", async () => {
  const probed = new Set<string>();
  const probe: PortProbe = {
    unavailable: () => null,
    accepts: (host) => {
      probed.add(host);
      return Promise.resolve(host === "::1");
    },
  };
  using t = setup({ port: 5173 });
  assert.deepEqual(await t.watch(probe).result, { kind: "port", host: "::1", port: 5173 });
  assert.deepEqual([...probed].sort(), ["127.0.0.1", "::1"]);
});

Deno.test("port: a host the server may not connect to fails at once with the reason", async () => {
  using t = setup({ port: 3000 });
  const probe: PortProbe = {
    unavailable: (host) => `no permission for ${host}`,
    accepts: () => Promise.reject(new Error("must not be called")),
  };
  assert.deepEqual(await t.watch(probe).result, {
    kind: "failed",
    error: "no permission for 127.0.0.1",
  });
});

Deno.test("output: a catastrophic regex is stopped at its deadline and the main thread stays responsive", async () => {
  const clock = new ManualClock();
  const source = new MemoryOutputSource({ clock });
  using regex = new RegexWorker({ deadlineMs: 300 });
  const watch = watchConditions(source, conditions({ output: "(a+)+$" }), {
    cursorSeq: 1,
    regex,
    probe: NO_NETWORK,
    clock,
  });
  source.append("stdout", `${"a".repeat(40)}!\n`);
  let ticks = 0;
  const ticking = setInterval(() => ticks++, 5);
  try {
    const hit = await watch.result;
    assert.equal(hit?.kind, "failed");
    assert.match((hit as { error: string }).error, /ran longer than 300 ms .* simplify it/);
    // Timers kept firing while the worker backtracked: the server was never frozen.
    assert.ok(ticks > 0, "no timer fired while the regex ran");
  } finally {
    clearInterval(ticking);
  }
  // The runner recovers: the next attempt gets a fresh worker.
  assert.deepEqual(await regex.exec({ source: "b", flags: "mu" }, "abc"), {
    kind: "match",
    index: 1,
    text: "b",
  });
});

Deno.test("close: settles with null and leaves no subscription or timer behind", async () => {
  using t = setup({ output: "never", idle_ms: 1000, port: 4000 });
  const watch = t.watch();
  t.source.append("stdout", "some output\n");
  // Both the idle check and the pause between port probes are armed.
  while (t.clock.pending < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  watch.close();
  assert.equal(await watch.result, null);
  assert.equal(t.source.listenerCount, 0);
  assert.equal(t.clock.pending, 0);
});

Deno.test("failure: an output source that throws ends the watch with the reason, not a rejection", async () => {
  const clock = new ManualClock();
  const broken: OutputSource = {
    latestSeq: 6,
    ended: false,
    exited: new Promise(() => {}),
    lastOutputAt: () => 0,
    onAppend: () => () => {},
    chunksFrom: () => {
      throw new Error("the log was disposed");
    },
  };
  using regex = new RegexWorker();
  const watch = watchConditions(broken, conditions({ output: "text" }), {
    cursorSeq: 1,
    regex,
    probe: NO_NETWORK,
    clock,
  });
  assert.deepEqual(await watch.result, {
    kind: "failed",
    error: "Cannot watch the conditions: the log was disposed",
  });
});
