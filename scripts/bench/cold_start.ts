import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serverCommand, waitForExit } from "../../tests/e2e/harness.ts";
import { median } from "./stats.ts";
import { formatTimeline, startOnce, type StartupSample, summarize } from "./startup_timeline.ts";
import type { SectionResult } from "./table.ts";

const root = new URL("../../", import.meta.url).pathname;
const RUNS = 10;
const TARGET_MS = 60;

interface Launch {
  command: string;
  args: string[];
}

/** Spawn, `initialize` answered, `tools/list` returned: milliseconds; the server is then closed. */
async function coldStartMs(launch: Launch): Promise<number> {
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    cwd: root,
    env: Deno.env.toObject(),
    stderr: "pipe",
  });
  const client = new Client({ name: "yieldshell-bench", version: "1.0.0" });
  const started = performance.now();
  let pid: number | null = null;
  try {
    await client.connect(transport);
    pid = transport.pid;
    const { tools } = await client.listTools();
    const elapsed = performance.now() - started;
    if (tools.length === 0) throw new Error(`${launch.args.join(" ")} listed no tools`);
    return elapsed;
  } finally {
    pid ??= transport.pid;
    await client.close().catch(() => {});
    if (pid !== null) await waitForExit(pid, 10_000);
  }
}

/** `deno run` of a script, spawn to exit, in ms. */
async function runMs(script: string): Promise<number> {
  const started = performance.now();
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P=server", `${root}scripts/bench/${script}`],
    cwd: root,
    stdout: "null",
    stderr: "null",
  }).output();
  if (!success) throw new Error(`scripts/bench/${script} failed`);
  return performance.now() - started;
}

/** Cold start of yieldshell against a minimal server on the same SDK, started the same way. */
export async function benchColdStart(): Promise<SectionResult> {
  const ours = serverCommand();
  // The same server with a blacklist, which loads the bash grammar at startup.
  const withGrammar = serverCommand(["--blacklist", "rm"]);
  const minimal: Launch = {
    command: Deno.execPath(),
    args: ["run", "-q", "-P=server", `${root}scripts/bench/minimal_server.ts`],
  };
  // One unmeasured start each fills Deno's module and transpile caches.
  await coldStartMs(ours);
  await coldStartMs(minimal);
  await coldStartMs(withGrammar);
  await runMs("empty.ts");
  await runMs("sdk_import.ts");
  await runMs("zod_import.ts");
  await runMs("tool_layer.ts");
  await startOnce();
  // The same start over raw JSON-RPC lines, with the server's own startup marks.
  const rawSamples: StartupSample[] = [];
  const oursMs: number[] = [];
  const minimalMs: number[] = [];
  const grammarMs: number[] = [];
  const floorMs: number[] = [];
  const importMs: number[] = [];
  const zodMs: number[] = [];
  const toolLayerMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Alternate who goes first so neither always follows the other's exit.
    if (run % 2 === 0) {
      oursMs.push(await coldStartMs(ours));
      rawSamples.push(await startOnce());
      minimalMs.push(await coldStartMs(minimal));
      grammarMs.push(await coldStartMs(withGrammar));
      floorMs.push(await runMs("empty.ts"));
      importMs.push(await runMs("sdk_import.ts"));
      zodMs.push(await runMs("zod_import.ts"));
      toolLayerMs.push(await runMs("tool_layer.ts"));
    } else {
      toolLayerMs.push(await runMs("tool_layer.ts"));
      zodMs.push(await runMs("zod_import.ts"));
      importMs.push(await runMs("sdk_import.ts"));
      floorMs.push(await runMs("empty.ts"));
      grammarMs.push(await coldStartMs(withGrammar));
      minimalMs.push(await coldStartMs(minimal));
      rawSamples.push(await startOnce());
      oursMs.push(await coldStartMs(ours));
    }
  }
  const timeline = summarize(RUNS, rawSamples);
  const markMs = (name: string) => timeline.marks.find((mark) => mark.mark === name)?.ms ?? NaN;
  const grammarMedian = median(grammarMs);
  const oursMedian = median(oursMs);
  const minimalMedian = median(minimalMs);
  return {
    rows: [{
      figure: "cold start: spawn to tools/list (median)",
      ours: oursMedian,
      baseline: minimalMedian,
      unit: "ms",
      target: `< ${TARGET_MS} ms`,
      met: oursMedian < TARGET_MS,
    }, {
      figure: "cold start of the minimal SDK server (its floor)",
      ours: minimalMedian,
      baseline: median(floorMs),
      unit: "ms",
      target: `< ${TARGET_MS} ms`,
      met: minimalMedian < TARGET_MS,
    }, {
      figure: "cold start: deno run importing the SDK server and stdio, then exiting",
      ours: median(importMs),
      baseline: median(floorMs),
      unit: "ms",
      target: "—",
      met: null,
    }, {
      figure: "cold start: deno run importing zod, then exiting",
      ours: median(zodMs),
      baseline: median(floorMs),
      unit: "ms",
      target: "—",
      met: null,
    }, {
      figure: "cold start: deno run of the tool layer alone (zod, src/mcp, tools/list built)",
      ours: median(toolLayerMs),
      baseline: median(floorMs),
      unit: "ms",
      target: `< ${TARGET_MS} ms`,
      met: median(toolLayerMs) < TARGET_MS,
    }, {
      figure: "cold start, raw JSON-RPC client: spawn to tools/list (median)",
      ours: timeline.toolsListMs,
      baseline: median(floorMs),
      unit: "ms",
      target: `< ${TARGET_MS} ms`,
      met: timeline.toolsListMs < TARGET_MS,
    }, {
      figure: "startup: spawn to main() entered (runtime and module graph)",
      ours: markMs("main"),
      baseline: median(floorMs),
      unit: "ms",
      target: "—",
      met: null,
    }, {
      figure: "startup: main() entered to serving (config, platform, app)",
      ours: markMs("serving") - markMs("main"),
      baseline: null,
      unit: "ms",
      target: "—",
      met: null,
    }, {
      figure: "cold start with the bash grammar (--blacklist rm), growth",
      ours: grammarMedian - oursMedian,
      baseline: null,
      unit: "ms",
      target: "< 50 ms",
      met: grammarMedian - oursMedian < 50,
    }],
    notes: [
      `Startup timeline (scripts/bench/startup_timeline.ts: raw JSON-RPC lines, no SDK client; \`YIELDSHELL_STARTUP_TRACE=1\` marks of the server, ms since spawn, medians of ${RUNS}): ${
        formatTimeline(timeline).slice(1).map((line) => line.trim().replace(/\s+/, " ")).join("; ")
      }.`,
      `Cold start: ${RUNS} interleaved starts each after one unmeasured warm-up start; both servers are started with \`deno run -q -P=server\` from the repository root and driven by the same SDK Client over stdio. Baseline: scripts/bench/minimal_server.ts (McpServer, one trivial tool, StdioServerTransport), the floor of any server on this SDK under Deno; its own baseline is \`deno run\` of scripts/bench/empty.ts (no imports), spawn to exit, and the import row is \`deno run\` of scripts/bench/sdk_import.ts (McpServer and StdioServerTransport imported, nothing run), spawn to exit, against the same floor. yieldshell no longer runs on the SDK's server (src/protocol is ours), so its floor is the tool layer: scripts/bench/tool_layer.ts imports zod and src/mcp, builds one session's tools and answers tools/list in-process, then exits (no config, core, platform or transport); scripts/bench/zod_import.ts imports zod alone.`,
    ],
  };
}
