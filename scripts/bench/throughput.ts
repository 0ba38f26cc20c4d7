import { startServer } from "../../tests/e2e/harness.ts";
import { BaselineProcess } from "./baseline_process.ts";
import { procMemory, toMb } from "./proc_status.ts";
import { RawClient } from "./raw_client.ts";
import { callOk, NONE, type Payload, waitExited, xBytesCommand } from "./session.ts";
import { median, sleep } from "./stats.ts";
import type { SectionResult } from "./table.ts";

const TOTAL_BYTES = 20_000_000;
const RUNS = 3;
const PAGE_BYTES = 65_536;
const BUFFER_BYTES = 32 * 1_048_576;
const TARGET_FRACTION = 0.5;
const FLOOD_BYTES = 1_000_000_000;

/** Calls a tool and returns its structured payload (the SDK Client or the raw client). */
type Call = (name: string, args: Record<string, unknown>) => Promise<Payload>;

/** 20 MB through `execute` (yield_ms 0) and cursorless `read`s; MB/s at the client. */
async function throughOurs(call: Call): Promise<number> {
  const started = performance.now();
  let page = await call("execute", {
    command: xBytesCommand(TOTAL_BYTES),
    side_effects: NONE,
    yield_ms: 0,
    max_output_bytes: PAGE_BYTES,
  });
  let received = page.stdout.length;
  const id = page.execution_id;
  const live = (status: string) => status === "running" || status === "backgrounded";
  while (live(page.status) || page.next_seq !== page.latest_seq) {
    page = await call("read", { execution_id: id, max_output_bytes: PAGE_BYTES });
    received += page.stdout.length;
    if (page.evicted) throw new Error("Throughput read reported evicted output");
  }
  const elapsed = performance.now() - started;
  if (received !== TOTAL_BYTES) throw new Error(`Read ${received} of ${TOTAL_BYTES} bytes`);
  return TOTAL_BYTES / 1e6 / (elapsed / 1000);
}

/** The same pipe drained in-process with `Deno.Command`; MB/s. */
async function throughDirect(): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", xBytesCommand(TOTAL_BYTES)],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let received = 0;
  for await (const chunk of child.stdout) received += chunk.length;
  await child.status;
  const elapsed = performance.now() - started;
  if (received !== TOTAL_BYTES) throw new Error(`Drained ${received} of ${TOTAL_BYTES} bytes`);
  return TOTAL_BYTES / 1e6 / (elapsed / 1000);
}

/** Output throughput against draining the same pipe in-process. */
export async function benchThroughput(): Promise<SectionResult> {
  const env = {
    YIELDSHELL_MAX_OUTPUT_BYTES: String(PAGE_BYTES),
    YIELDSHELL_MAX_BUFFER_BYTES: String(BUFFER_BYTES),
  };
  await using session = await startServer({ env });
  await using raw = await RawClient.start(env);
  // The default retention: a 256 KiB memory cache, the rest spooled to disk.
  await using spooled = await startServer({
    env: { YIELDSHELL_MAX_OUTPUT_BYTES: String(PAGE_BYTES) },
  });
  const viaSdk: Call = (name, args) => callOk(session, name, args);
  const viaRaw: Call = (name, args) => raw.call(name, args);
  const viaSpool: Call = (name, args) => callOk(spooled, name, args);
  await throughDirect();
  await throughOurs(viaSdk);
  await throughOurs(viaRaw);
  await throughOurs(viaSpool);
  const ours: number[] = [];
  const direct: number[] = [];
  const rawRates: number[] = [];
  const spoolRates: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    ours.push(await throughOurs(viaSdk));
    direct.push(await throughDirect());
    rawRates.push(await throughOurs(viaRaw));
    spoolRates.push(await throughOurs(viaSpool));
  }
  const oursMedian = median(ours);
  const directMedian = median(direct);
  const spoolMedian = median(spoolRates);
  return {
    rows: [
      {
        figure: "output throughput (20 MB, execute + reads)",
        ours: oursMedian,
        baseline: directMedian,
        unit: "MB/s",
        target: `≥ ${TARGET_FRACTION}× baseline`,
        met: oursMedian >= TARGET_FRACTION * directMedian,
      },
      {
        figure: "output throughput, default retention (spool), 100% retrieved",
        ours: spoolMedian,
        baseline: directMedian,
        unit: "MB/s",
        target: `≥ ${TARGET_FRACTION}× baseline`,
        met: spoolMedian >= TARGET_FRACTION * directMedian,
      },
      {
        figure: "output throughput, linear-time JSON-RPC client (diagnostic)",
        ours: median(rawRates),
        baseline: directMedian,
        unit: "MB/s",
        target: "—",
        met: null,
      },
    ],
    notes: [
      `Throughput: \`${
        xBytesCommand(TOTAL_BYTES)
      }\`, ${RUNS} interleaved runs each after one warm-up, median. Ours: \`execute\` with yield_ms 0, then cursorless \`read\`s at max_output_bytes ${PAGE_BYTES} until caught up and exited, timed at the client, every byte counted. The server runs with YIELDSHELL_MAX_OUTPUT_BYTES=${PAGE_BYTES} and YIELDSHELL_MAX_BUFFER_BYTES=${BUFFER_BYTES} (32 MiB) so nothing is evicted (checked). The default-retention row runs a third server with only YIELDSHELL_MAX_OUTPUT_BYTES=${PAGE_BYTES}: the default 256 KiB ring buffer is a memory cache and the spool keeps the rest on disk; every byte is read back (checked, and nothing evicted). Baseline: the same command through \`Deno.Command\`, stdout drained in the bench process. MB = 10^6 bytes.`,
      "Throughput diagnostic: the same calls through scripts/bench/raw_client.ts, a bare JSON-RPC client whose line framing is linear in the bytes received, against a second server with the same settings. The SDK's stdio ReadBuffer concatenates its whole buffer and searches it again from the start for a newline on every incoming chunk, which is quadratic in the message size (a 1 MB page is a ~2 MB message, as the result carries the payload twice: structuredContent and the JSON text); under Deno its Buffer.indexOf is JavaScript, so this dominates the SDK figure. The diagnostic row shows what the server itself sustains.",
    ],
  };
}

/** Peak RSS growth while `flood` runs, measured on `pid` (VmHWM after minus VmHWM before). */
async function hwmGrowth(pid: number, flood: () => Promise<void>): Promise<number> {
  await sleep(500);
  const before = procMemory(pid).hwmBytes;
  await flood();
  return procMemory(pid).hwmBytes - before;
}

/** Server peak RSS growth under a 1 GB flood with the default buffers. */
export async function benchFlood(): Promise<SectionResult> {
  const command = xBytesCommand(FLOOD_BYTES);
  let oursGrowth: number;
  let floodMs = 0;
  {
    await using session = await startServer();
    // Warm the execute path first so the baseline peak already includes it.
    await callOk(session, "execute", { command: "echo warm", side_effects: NONE });
    oursGrowth = await hwmGrowth(session.pid, async () => {
      const started = performance.now();
      const first = await callOk(session, "execute", {
        command,
        side_effects: NONE,
        yield_ms: 0,
        max_output_bytes: 1,
      });
      const last = await waitExited(session, first.execution_id);
      floodMs = performance.now() - started;
      if (last.exit_code !== 0) throw new Error(`Flood exited with ${last.exit_code}`);
    });
  }
  let baselineGrowth: number;
  {
    await using child = await BaselineProcess.start();
    await child.send("drain echo warm");
    baselineGrowth = await hwmGrowth(child.pid, async () => {
      const reply = await child.send(`drain ${command}`);
      if (reply !== `drained ${FLOOD_BYTES}`) throw new Error(`Baseline drain said ${reply}`);
    });
  }
  return {
    rows: [
      {
        figure: "peak RSS growth under a 1 GB flood",
        ours: toMb(oursGrowth),
        baseline: toMb(baselineGrowth),
        unit: "MB",
        target: "—",
        met: null,
      },
      {
        figure: "1 GB flood drained by the server",
        ours: FLOOD_BYTES / 1e6 / (floodMs / 1000),
        baseline: null,
        unit: "MB/s",
        target: "—",
        met: null,
      },
    ],
    notes: [
      `Flood: \`${command}\` with the default buffers (YIELDSHELL_MAX_BUFFER_BYTES 262144 per stream), started with yield_ms 0 and waited on until it exited; growth = VmHWM after minus VmHWM before (after a warm-up execute and 0.5 s of settling), read from /proc/<server pid>/status. Baseline: a plain Deno process started with the same \`deno run -q -P=server\` (scripts/bench/baseline_child.ts) draining the same command through \`Deno.Command\` and discarding it, measured the same way.`,
    ],
  };
}
