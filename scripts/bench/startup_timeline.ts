/**
 * The startup timeline of the server started as `deno task start` does: spawn to the
 * `initialize` answer and spawn to the `tools/list` answer over raw JSON-RPC lines (no SDK in
 * this process), and where the time goes inside the server (`YIELDSHELL_STARTUP_TRACE=1`
 * marks: main() entered, config resolved, platform ready, app created, serving). Medians.
 *
 *     deno run -P=test scripts/bench/startup_timeline.ts [--runs 10] [--no-trace] [--compare DIR]
 *       [-- server flags...]
 *
 * `--compare DIR` starts another checkout (e.g. `git archive main | tar -x -C DIR`, with its
 * node_modules) alternately with this one, for a before/after on the same noisy machine.
 */
import { parseArgs } from "node:util";
import { median } from "./stats.ts";

const root = new URL("../../", import.meta.url).pathname;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const TRACE_LINE = /startup trace: (\S+) [\d.]+ ms at ([\d.]+)/g;

/** One start: client-side answers, and each server mark, in ms since spawn. */
export interface StartupSample {
  initializeMs: number;
  toolsListMs: number;
  /** Trace marks in order (empty when the trace was off). */
  marks: { mark: string; ms: number }[];
}

/** Medians over the runs; `marks` in the servers' order. */
export interface StartupTimeline {
  runs: number;
  initializeMs: number;
  toolsListMs: number;
  marks: { mark: string; ms: number }[];
}

function now(): number {
  return performance.timeOrigin + performance.now();
}

/** Reads newline-framed JSON-RPC messages until the one with `id` arrives. */
async function answer(reader: ReadableStreamDefaultReader<Uint8Array>, id: number, buffer: {
  text: string;
}): Promise<void> {
  while (true) {
    let newline = buffer.text.indexOf("\n");
    while (newline >= 0) {
      const line = buffer.text.slice(0, newline);
      buffer.text = buffer.text.slice(newline + 1);
      const message = JSON.parse(line);
      if (message.id === id) {
        if (message.error !== undefined) throw new Error(JSON.stringify(message.error));
        return;
      }
      newline = buffer.text.indexOf("\n");
    }
    const { value, done } = await reader.read();
    if (done) throw new Error(`The server closed stdout before answering request ${id}`);
    buffer.text += decoder.decode(value, { stream: true });
  }
}

/** Starts the server once, completes initialize and tools/list, then closes its stdin. */
export async function startOnce(
  serverArgs: readonly string[] = [],
  trace = true,
  checkout = root,
): Promise<StartupSample> {
  const env = { ...Deno.env.toObject(), YIELDSHELL_STARTUP_TRACE: trace ? "1" : "0" };
  const spawned = now();
  const child = new Deno.Command(Deno.execPath(), {
    // As `deno task start` (deno.json) starts it.
    args: ["run", "-q", "-P=server", "--no-prompt", `${checkout}/main.ts`, ...serverArgs],
    cwd: checkout,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  const buffer = { text: "" };
  const send = (message: unknown) => writer.write(encoder.encode(`${JSON.stringify(message)}\n`));
  try {
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "yieldshell-startup-timeline", version: "1.0.0" },
      },
    });
    await answer(reader, 1, buffer);
    const initializeMs = now() - spawned;
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    await answer(reader, 2, buffer);
    const toolsListMs = now() - spawned;
    await writer.close();
    await reader.cancel();
    const status = await child.status;
    const log = await stderr;
    if (!status.success) throw new Error(`The server exited with ${status.code}: ${log}`);
    const marks = [...log.matchAll(TRACE_LINE)].map((match) => ({
      mark: match[1],
      ms: Number(match[2]) - spawned,
    }));
    return { initializeMs, toolsListMs, marks };
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
    await stderr.catch(() => "");
    throw error;
  }
}

/**
 * Interleaved starts of several servers, after one unmeasured start each (it fills Deno's
 * caches); per server. The trace is on unless `trace` is false (a few stderr lines).
 */
export async function sampleStarts(
  servers: readonly {
    runs: number;
    serverArgs?: readonly string[];
    trace?: boolean;
    /** The checkout to start (its main.ts). @default this repository */
    checkout?: string;
  }[],
): Promise<StartupSample[][]> {
  const start = (server: (typeof servers)[number]) =>
    startOnce(server.serverArgs ?? [], server.trace ?? true, server.checkout ?? root);
  for (const server of servers) await start(server);
  const samples: StartupSample[][] = servers.map(() => []);
  const runs = Math.max(...servers.map((server) => server.runs));
  for (let run = 0; run < runs; run++) {
    // Alternate who goes first so neither always follows the other's exit.
    const order = servers.map((_, index) => index);
    if (run % 2 === 1) order.reverse();
    for (const index of order) {
      if (run < servers[index].runs) samples[index].push(await start(servers[index]));
    }
  }
  return samples;
}

/** Medians of one server's samples. */
export function summarize(runs: number, samples: readonly StartupSample[]): StartupTimeline {
  const names = samples[0].marks.map((mark) => mark.mark);
  return {
    runs,
    initializeMs: median(samples.map((sample) => sample.initializeMs)),
    toolsListMs: median(samples.map((sample) => sample.toolsListMs)),
    marks: names.map((mark) => ({
      mark,
      ms: median(samples.map((sample) => sample.marks.find((m) => m.mark === mark)?.ms ?? NaN)),
    })),
  };
}

/** The timeline as text lines. */
export function formatTimeline(timeline: StartupTimeline): string[] {
  const lines = timeline.marks.map(({ mark, ms }) => `  ${mark.padEnd(22)} ${ms.toFixed(1)} ms`);
  return [
    `startup timeline, median of ${timeline.runs} runs (ms since spawn):`,
    ...lines,
    `  ${"initialize answered".padEnd(22)} ${timeline.initializeMs.toFixed(1)} ms`,
    `  ${"tools/list answered".padEnd(22)} ${timeline.toolsListMs.toFixed(1)} ms`,
  ];
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: {
      runs: { type: "string", default: "10" },
      "no-trace": { type: "boolean" },
      // Another checkout (e.g. an export of main) started alternately with this one.
      compare: { type: "string" },
    },
    allowPositionals: true,
    strict: true,
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`--runs must be a positive integer: received ${values.runs}`);
  }
  const server = { runs, serverArgs: positionals, trace: !values["no-trace"] };
  const checkouts = values.compare === undefined ? [root] : [root, values.compare];
  const samples = await sampleStarts(checkouts.map((checkout) => ({ ...server, checkout })));
  checkouts.forEach((checkout, index) => {
    console.log(checkout);
    for (const line of formatTimeline(summarize(runs, samples[index]))) console.log(line);
  });
  console.log(`  load average: ${Deno.loadavg().map((load) => load.toFixed(2)).join(" ")}`);
}
