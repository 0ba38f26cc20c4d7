/**
 * The spool section of `deno task bench` (issue #14), all in one run: capture throughput and
 * peak memory with the spool against the all-memory ring buffers (the baseline), a 20 KB page
 * read from disk against one from the memory cache, and a search over 200 MB against `grep`.
 * These run on the core (the MCP wiring of the spool is not part of this section).
 */
import { OutputLog } from "../../src/core/output_log.ts";
import { Searcher } from "../../src/core/search.ts";
import { Spool } from "../../src/core/spool.ts";
import { currentSpoolDisk } from "../../src/platform/mod.ts";
import { median } from "./stats.ts";
import { toMb } from "./proc_status.ts";
import type { Row, SectionResult } from "./table.ts";

const CAPTURE_BYTES = 200_000_000;
const FLOOD_BYTES = 1_000_000_000;
const RUNS = 3;
const PAGE_BYTES = 20_000;
const READS = 400;
const SEARCH_LINES = 6_500_000;
const MIB = 1_048_576;

interface CaptureRun {
  ms: number;
  bytes: number;
  hwmGrowthBytes: number;
  onDisk: number;
}

async function capture(mode: "spool" | "memory", bytes: number, root: string): Promise<CaptureRun> {
  const script = new URL("./spool_child.ts", import.meta.url).pathname;
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=test", script, mode, String(bytes), root],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  if (!success) throw new Error(`Capture child failed: ${decoder.decode(stderr)}`);
  return JSON.parse(decoder.decode(stdout).trim().split("\n").at(-1)!);
}

/** Median microseconds of `read` over `starts`. */
function readMicros(log: OutputLog, starts: number[]): number {
  const times: number[] = [];
  for (const startSeq of starts) {
    const began = performance.now();
    const page = log.read({ startSeq, maxBytes: PAGE_BYTES });
    times.push((performance.now() - began) * 1000);
    if (page.stdout.length < PAGE_BYTES / 2) throw new Error("A bench page came back short");
  }
  return median(times);
}

/** A seeded position generator (a linear congruential one is enough to spread reads). */
function positions(count: number, from: number, to: number): number[] {
  let state = 20_261_217;
  return Array.from({ length: count }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return from + Math.floor((state / 2 ** 31) * (to - from));
  });
}

async function grepMs(path: string, pattern: string): Promise<number> {
  const began = performance.now();
  const { stdout } = await new Deno.Command("grep", { args: ["-n", "-E", pattern, path] }).output();
  const ms = performance.now() - began;
  if (stdout.length === 0) throw new Error("grep found nothing");
  return ms;
}

/** Capture, page reads and search with the spool, each against its same-run baseline. */
export async function benchSpool(): Promise<SectionResult> {
  const root = await Deno.makeTempDir({ prefix: "yieldshell-bench-spool-" });
  try {
    const rows: Row[] = [];
    // Capture: interleaved runs after one warm-up of each.
    await capture("memory", 10_000_000, root);
    await capture("spool", 10_000_000, root);
    const memory: number[] = [];
    const spooled: number[] = [];
    const spooledGrowth: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      memory.push((await capture("memory", CAPTURE_BYTES, root)).ms);
      const spoolRun = await capture("spool", CAPTURE_BYTES, root);
      spooled.push(spoolRun.ms);
      spooledGrowth.push(spoolRun.hwmGrowthBytes);
    }
    const rate = (ms: number) => CAPTURE_BYTES / 1e6 / (ms / 1000);
    const spoolRate = rate(median(spooled));
    const memoryRate = rate(median(memory));
    rows.push({
      figure: "capture throughput, 200 MB, spool on vs off (core)",
      ours: spoolRate,
      baseline: memoryRate,
      unit: "MB/s",
      target: "≥ 0.5× spool off",
      met: spoolRate >= 0.5 * memoryRate,
    });
    const floodMemory = await capture("memory", FLOOD_BYTES, root);
    const floodSpool = await capture("spool", FLOOD_BYTES, root);
    const smallGrowth = median(spooledGrowth);
    rows.push({
      figure: "peak RSS growth with the spool, 1 GB vs 200 MB captured (core)",
      ours: toMb(floodSpool.hwmGrowthBytes),
      baseline: toMb(smallGrowth),
      unit: "MB",
      target: "≤ 1.25× (independent of volume)",
      met: floodSpool.hwmGrowthBytes <= 1.25 * smallGrowth,
    }, {
      figure: "peak RSS growth, 1 GB captured, spool on vs off (core)",
      ours: toMb(floodSpool.hwmGrowthBytes),
      baseline: toMb(floodMemory.hwmGrowthBytes),
      unit: "MB",
      target: "—",
      met: null,
    });
    if (floodSpool.onDisk < 0.9 * FLOOD_BYTES) throw new Error("The flood was not on disk");

    // Page reads: a 100 MB spooled history; memory pages come from the newest 200 KB.
    const { disk } = currentSpoolDisk({});
    await using spool = Spool.open({
      disk,
      root,
      pid: Deno.pid,
      maxStreamBytes: 1024 * MIB,
      maxTotalBytes: 4096 * MIB,
    });
    const log = new OutputLog({ capacityBytes: 262_144, spool: spool.forExecution() });
    const line = new TextEncoder().encode("compiling module 0123456789 ok\n".repeat(2048));
    while (log.latestSeq < 100_000_000) log.append("stdout", line.slice());
    const latest = log.latestSeq;
    const memoryStarts = positions(READS, latest - 200_000, latest - PAGE_BYTES);
    const diskStarts = positions(READS, 1, latest - 1_000_000);
    readMicros(log, memoryStarts.slice(0, 50));
    readMicros(log, diskStarts.slice(0, 50));
    const memoryMicros = readMicros(log, memoryStarts);
    const diskMicros = readMicros(log, diskStarts);
    rows.push({
      figure: "read of a 20 KB page from disk vs from the memory cache (core, median)",
      ours: diskMicros,
      baseline: memoryMicros,
      unit: "µs",
      target: "≤ 2× memory",
      met: diskMicros <= 2 * memoryMicros,
    });
    log.close();

    // Search: 200 MB of lines with one match near the end, whole history scanned.
    const history = new OutputLog({ capacityBytes: 262_144, spool: spool.forExecution() });
    const block = new TextEncoder().encode("compiling module 0123456789 ok\n".repeat(32_768));
    const path = `${root}/history.txt`;
    using file = await Deno.open(path, { write: true, create: true });
    for (let lines = 0; lines < SEARCH_LINES; lines += 32_768) {
      history.append("stdout", block.slice());
      file.writeSync(block);
    }
    const needle = new TextEncoder().encode("error: step 99 failed\n");
    history.append("stdout", needle);
    file.writeSync(needle);
    const size = history.latestSeq - 1;
    using searcher = new Searcher({ timeLimitMs: 120_000 });
    const search = async (fixedString: boolean) => {
      const began = performance.now();
      const result = await searcher.search(history, {
        pattern: fixedString ? "error: step 99" : "error: step \\d+",
        fixedString,
        maxOutputBytes: 20_000,
      });
      const ms = performance.now() - began;
      if (!result.complete || result.matches.length !== 1) throw new Error("Search missed");
      return ms;
    };
    await search(false);
    const regexMs = median([await search(false), await search(false), await search(false)]);
    const fixedMs = median([await search(true), await search(true), await search(true)]);
    await grepMs(path, "error: step [0-9]+");
    const grep = median([
      await grepMs(path, "error: step [0-9]+"),
      await grepMs(path, "error: step [0-9]+"),
      await grepMs(path, "error: step [0-9]+"),
    ]);
    rows.push({
      figure: `search over ${(size / 1e6).toFixed(0)} MB spooled, regex (vs grep -nE on a file)`,
      ours: regexMs,
      baseline: grep,
      unit: "ms",
      target: "—",
      met: null,
    }, {
      figure: `search over ${(size / 1e6).toFixed(0)} MB spooled, fixed string (vs grep -nE)`,
      ours: fixedMs,
      baseline: grep,
      unit: "ms",
      target: "—",
      met: null,
    });
    history.close();
    return {
      rows,
      notes: [
        `Spool capture: \`head -c ${CAPTURE_BYTES} /dev/zero | tr '\\0' x\` fed through the capture path of an execution (Utf8Normalizer, OutputLog.append) in a child process (scripts/bench/spool_child.ts), ${RUNS} interleaved runs of each after a warm-up, median; spool on is the default (256 KiB memory cache, 1 GiB per stream, 64 MiB segments in the system temp directory's file system); the baseline is spool off (the 256 KiB ring buffer alone). Peak RSS: the same with ${
          FLOOD_BYTES / 1e9
        } GB, VmHWM growth of the child during the capture. These figures are the core's; the end-to-end ones through MCP come with the server wiring.`,
        `Spool page reads: a 100 MB spooled history; ${READS} reads of ${PAGE_BYTES} bytes at seeded random positions, from disk (older than the newest 1 MB) and from the memory cache (the newest 200 KB), median microseconds of OutputLog.read in-process (files in the page cache).`,
        `Spool search: ${
          (size / 1e6).toFixed(0)
        } MB of lines in a spooled log with one matching line at the end, so the whole history is scanned (Searcher, 1 MiB blocks; regexes in the worker thread), median of 3 after a warm-up; baseline: \`grep -nE\` over a file with the same bytes.`,
      ],
    };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
