/**
 * Streamable HTTP figures over loopback, for `scripts/bench.ts` (its `http` section) or
 * alone: `deno task bench:http`. The server runs as the README starts it, in
 * its own process; the SDK clients run here.
 */
import { startHttpServer } from "../../tests/e2e/http_harness.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { median, percentile } from "./stats.ts";
import type { SectionResult } from "./table.ts";

/** One HTTP figure. */
export interface HttpFigure {
  figure: string;
  ours: number;
  baseline: number | null;
  unit: string;
}

/** How many sequential `execute` calls the round trip is measured over. */
const ROUND_TRIPS = 100;
/** Sessions polling at once in the throughput figure. */
const SESSIONS = 20;
/** How long the sessions poll. */
const POLL_MS = 5_000;

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "yieldshell-bench-http", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * Round trip of `execute` running `echo hello` (p50, p95; baseline: the same command through
 * `Deno.Command` here, without MCP or HTTP), then 20 sessions polling `ps` for 5 s: requests/s
 * and p95 latency.
 */
export async function benchHttp(): Promise<HttpFigure[]> {
  await using server = await startHttpServer();
  const clients: Client[] = [];
  try {
    const client = await connect(server.url);
    clients.push(client);
    const echo = () =>
      client.callTool({
        name: "execute",
        arguments: { command: "echo hello", side_effects: ["NONE"] },
      });
    const direct = () =>
      new Deno.Command("sh", { args: ["-c", "echo hello"], stdout: "piped", stderr: "piped" })
        .output();
    for (let i = 0; i < 5; i++) await Promise.all([echo(), direct()]);
    const ours: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < ROUND_TRIPS; i++) {
      ours.push(await timed(echo));
      baseline.push(await timed(direct));
    }

    while (clients.length < SESSIONS) clients.push(await connect(server.url));
    const latencies: number[] = [];
    const deadline = performance.now() + POLL_MS;
    const started = performance.now();
    await Promise.all(clients.map(async (session) => {
      while (performance.now() < deadline) {
        latencies.push(await timed(() => session.callTool({ name: "ps", arguments: {} })));
      }
    }));
    const elapsedS = (performance.now() - started) / 1000;
    return [
      {
        figure: "round trip p50 (execute echo hello)",
        ours: median(ours),
        baseline: median(baseline),
        unit: "ms",
      },
      {
        figure: "round trip p95 (execute echo hello)",
        ours: percentile(ours, 0.95),
        baseline: percentile(baseline, 0.95),
        unit: "ms",
      },
      {
        figure: `throughput, ${SESSIONS} sessions polling ps`,
        ours: latencies.length / elapsedS,
        baseline: null,
        unit: "requests/s",
      },
      {
        figure: `latency p95 under ${SESSIONS} polling sessions (ps)`,
        ours: percentile(latencies, 0.95),
        baseline: null,
        unit: "ms",
      },
    ];
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
  }
}

/** The `http` section of `deno task bench`: the figures as `benchHttp` reports them. */
export async function benchHttpSection(): Promise<SectionResult> {
  const results = await benchHttp();
  return {
    rows: results.map(({ figure, ours, baseline, unit }) => ({
      figure: `http: ${figure}`,
      ours,
      baseline,
      unit,
      target: "—",
      met: null,
    })),
    notes: ["HTTP: figures from `benchHttp()` of scripts/bench/http.ts, as it reports them."],
  };
}

if (import.meta.main) {
  for (const row of await benchHttp()) {
    const baseline = row.baseline === null ? "" : ` (baseline ${row.baseline.toFixed(2)})`;
    console.log(`${row.figure}: ${row.ours.toFixed(2)} ${row.unit}${baseline}`);
  }
}
