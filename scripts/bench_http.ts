/**
 * Streamable HTTP figures over loopback, for `scripts/bench.ts` (which imports `benchHttp`) or
 * alone: `deno run -P=test scripts/bench_http.ts`. The server runs as the README starts it, in
 * its own process; the SDK clients run here.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { median, percentile } from "./bench/stats.ts";

/** One figure, in the shape `scripts/bench.ts` expects. */
export interface Row {
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

const root = new URL("../", import.meta.url).pathname;

/** A yieldshell server running over HTTP in a child process. */
export interface HttpServerProcess extends AsyncDisposable {
  /** The MCP endpoint, read from the server's `listening on` line. */
  url: string;
  child: Deno.ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Sends `signal` and waits for the exit (SIGKILL after 30 s); idempotent. */
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

/**
 * Starts `deno run -P=server --allow-net=127.0.0.1 main.ts --transport http --port 0` (a free
 * loopback port) and waits for the URL it logs.
 */
export async function startHttpServer(
  options: { args?: string[]; env?: Record<string, string> } = {},
): Promise<HttpServerProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-P=server",
      "--allow-net=127.0.0.1",
      `${root}main.ts`,
      "--transport",
      "http",
      "--port",
      "0",
      ...options.args ?? [],
    ],
    cwd: root,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const listening = Promise.withResolvers<string>();
  const pump = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      text += decoder.decode(chunk, { stream: true });
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match !== null) listening.resolve(match[1]);
    }
    listening.reject(new Error(`The server exited before listening:\n${text}`));
  })();
  let stopped: Promise<Deno.CommandStatus> | null = null;
  const stop = (signal: Deno.Signal = "SIGTERM") =>
    stopped ??= (async () => {
      const kill = (how: Deno.Signal) => {
        try {
          child.kill(how);
        } catch { /* already exited */ }
      };
      kill(signal);
      const timer = setTimeout(() => kill("SIGKILL"), 30_000);
      const status = await child.status;
      clearTimeout(timer);
      await pump;
      return status;
    })();
  try {
    const url = await listening.promise;
    return { url, child, stderr: () => text, stop, [Symbol.asyncDispose]: () => stop().then() };
  } catch (error) {
    await stop("SIGKILL");
    throw error;
  }
}

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
export async function benchHttp(): Promise<Row[]> {
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

if (import.meta.main) {
  for (const row of await benchHttp()) {
    const baseline = row.baseline === null ? "" : ` (baseline ${row.baseline.toFixed(2)})`;
    console.log(`${row.figure}: ${row.ours.toFixed(2)} ${row.unit}${baseline}`);
  }
}
