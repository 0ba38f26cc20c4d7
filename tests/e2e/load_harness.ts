/**
 * The load run of issue #7, shared by `tests/e2e/load_test.ts` and the bench: many executions
 * stream numbered lines while clients poll them with cursorless `read`s; every execution's
 * output is reassembled from the polls and compared with what it printed, byte for byte.
 *
 * - stdio: one server, one session; `stdioPollers` concurrent polling loops share it, each
 *   polling its share of `stdioExecutions`.
 * - HTTP: one more server (`--transport http`), `httpClients` separate sessions, each starting
 *   and polling its own `httpExecutionsPerClient` executions.
 *
 * Each server runs with YIELDSHELL_MAX_BUFFER_BYTES far above what an execution prints, so
 * nothing is evicted and a lost byte is a bug, not retention.
 */
import { type HttpServerProcess, startHttpServer } from "./http_harness.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { percentile } from "../../scripts/bench/stats.ts";
import { marker, processesWithMarker, startServer } from "./harness.ts";

/** Options for {@linkcode runLoad}. */
export interface LoadOptions {
  /** Executions started and polled over one stdio session. @default 50 */
  stdioExecutions?: number;
  /** Concurrent polling loops sharing the stdio session. @default 10 */
  stdioPollers?: number;
  /** HTTP sessions, each a separate client with its own executions. @default 0 */
  httpClients?: number;
  /** Executions each HTTP session starts and polls. @default 5 */
  httpExecutionsPerClient?: number;
  /** Lines each execution prints; every tenth goes to stderr. @default 500 */
  lines?: number;
  /** Pause after each line, in ms (a bash `read -t`, so no process per line). @default 10 */
  lineIntervalMs?: number;
  /** Pause between two polling rounds of one loop, in ms. @default 20 */
  pollIntervalMs?: number;
  /** Polling gives up (and counts a failure per unfinished execution) after this. @default 120000 */
  deadlineMs?: number;
}

/** What {@linkcode runLoad} measured. */
export interface LoadResult {
  /** Tool calls made (execute and read). */
  requests: number;
  /** Calls that threw or returned isError, evicted pages, and executions whose output differs. */
  failures: number;
  /** 95th percentile round trip of the polling reads (the steady load), in ms. */
  p95Ms: number;
  /** Bytes of output compared exactly with what the executions printed. */
  bytesChecked: number;
  executions: number;
  /** Polling loops on stdio plus HTTP sessions. */
  clients: number;
  /** Median and largest round trip of the polling reads, in ms. */
  p50Ms: number;
  maxMs: number;
  /** 95th percentile round trip of the executes that start the run (all at once), in ms. */
  startP95Ms: number;
  /** Per transport: polling reads and their p95 round trip. */
  byTransport: Record<"stdio" | "http", { reads: number; p95Ms: number }>;
  /** Wall time from the first execute to the last verified byte, in ms. */
  elapsedMs: number;
  /** Processes of the run still alive after the servers exited (must be 0). */
  orphans: number;
  /** The first few failures, described. */
  problems: string[];
}

type Transport = "stdio" | "http";
type Call = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;

interface Tracked {
  index: number;
  id: string;
  stdout: string;
  stderr: string;
  cursor: number;
  done: boolean;
  status: string;
  exitCode: unknown;
}

/** Run-wide tallies. */
class Tally {
  requests = 0;
  failures = 0;
  bytesChecked = 0;
  problems: string[] = [];
  roundTrips: { transport: Transport; tool: string; ms: number }[] = [];

  fail(problem: string): void {
    this.failures++;
    if (this.problems.length < 20) this.problems.push(problem);
  }

  /** Makes one timed call; null when it threw or returned isError (counted as a failure). */
  async call(
    transport: Transport,
    call: Call,
    name: string,
    args: Record<string, unknown>,
    // deno-lint-ignore no-explicit-any
  ): Promise<Record<string, any> | null> {
    this.requests++;
    const started = performance.now();
    const record = () =>
      this.roundTrips.push({ transport, tool: name, ms: performance.now() - started });
    try {
      const result = await call(name, args);
      record();
      if (result.isError) {
        const text = result.content?.[0]?.type === "text" ? result.content[0].text : "";
        this.fail(`${transport} ${name} returned an error: ${text.slice(0, 300)}`);
        return null;
      }
      return result.structuredContent as Record<string, unknown>;
    } catch (error) {
      record();
      this.fail(`${transport} ${name} threw: ${error instanceof Error ? error.message : error}`);
      return null;
    }
  }
}

/** The line an execution prints for `line`: fixed width, so sizes are predictable. */
function lineText(execution: number, line: number): string {
  return `e${String(execution).padStart(4, "0")} line ${String(line).padStart(5, "0")}\n`;
}

/** What execution `index` prints on each stream. */
function expectedOutput(index: number, lines: number): { stdout: string; stderr: string } {
  let stdout = "";
  let stderr = "";
  for (let line = 0; line < lines; line++) {
    if (line % 10 === 9) stderr += lineText(index, line);
    else stdout += lineText(index, line);
  }
  return { stdout, stderr };
}

/**
 * A bash loop printing `lines` numbered lines, one every `intervalMs`. `read -t` on a pipe
 * nobody writes to (fd opened read-write from a process substitution) sleeps without a fork.
 */
function loopCommand(index: number, lines: number, intervalMs: number): string {
  const seconds = (intervalMs / 1000).toFixed(3);
  return [
    `exec {pause}<> <(:)`,
    `n=0`,
    `while [ $n -lt ${lines} ]; do`,
    `  if [ $((n % 10)) -eq 9 ]; then printf 'e%04d line %05d\\n' ${index} $n >&2;`,
    `  else printf 'e%04d line %05d\\n' ${index} $n; fi`,
    `  n=$((n + 1))`,
    `  read -t ${seconds} -u $pause`,
    `done`,
    `exit 0`,
  ].join("\n");
}

function callerOf(client: Client): Call {
  return (name, args) =>
    client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 }) as Promise<
      CallToolResult
    >;
}

/** Starts executions `indices` through `call`; the ones that started are tracked. */
async function startExecutions(
  tally: Tally,
  transport: Transport,
  call: Call,
  indices: number[],
  options: Required<LoadOptions>,
): Promise<Tracked[]> {
  const started = await Promise.all(indices.map(async (index) => {
    const payload = await tally.call(transport, call, "execute", {
      command: loopCommand(index, options.lines, options.lineIntervalMs),
      shell: "/bin/bash",
      side_effects: ["NONE"],
      yield_ms: 0,
    });
    if (payload === null) return null;
    if (payload.status !== "backgrounded") {
      tally.fail(`${transport} execution ${index} did not start: ${JSON.stringify(payload)}`);
      return null;
    }
    const tracked: Tracked = {
      index,
      id: payload.execution_id,
      stdout: payload.stdout,
      stderr: payload.stderr,
      cursor: payload.next_seq,
      done: false,
      status: "running",
      exitCode: null,
    };
    return tracked;
  }));
  return started.filter((tracked) => tracked !== null);
}

/** Polls `tracked` with cursorless reads until each has exited and been read to the end. */
async function pollUntilDone(
  tally: Tally,
  transport: Transport,
  call: Call,
  tracked: Tracked[],
  options: Required<LoadOptions>,
  deadline: number,
): Promise<void> {
  while (tracked.some((execution) => !execution.done)) {
    if (performance.now() > deadline) {
      for (const execution of tracked.filter((execution) => !execution.done)) {
        tally.fail(`${transport} execution ${execution.index} not finished by the deadline`);
      }
      return;
    }
    for (const execution of tracked) {
      if (execution.done) continue;
      const page = await tally.call(transport, call, "read", { execution_id: execution.id });
      if (page === null) continue;
      if (page.evicted) tally.fail(`${transport} execution ${execution.index}: output evicted`);
      if (page.next_seq < execution.cursor) {
        tally.fail(`${transport} execution ${execution.index}: next_seq moved backwards`);
      }
      execution.stdout += page.stdout;
      execution.stderr += page.stderr;
      execution.cursor = page.next_seq;
      execution.status = page.status;
      execution.exitCode = page.exit_code;
      execution.done = page.status !== "running" && !page.capped &&
        page.next_seq === page.latest_seq;
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs));
  }
}

/** Compares every finished execution's reassembled output with what it printed. */
function verify(tally: Tally, transport: Transport, tracked: Tracked[], lines: number): void {
  const encoder = new TextEncoder();
  for (const execution of tracked) {
    if (!execution.done) continue;
    const expected = expectedOutput(execution.index, lines);
    const name = `${transport} execution ${execution.index}`;
    if (execution.status !== "completed" || execution.exitCode !== 0) {
      tally.fail(`${name} ended ${execution.status} with exit code ${execution.exitCode}`);
    }
    for (const stream of ["stdout", "stderr"] as const) {
      if (execution[stream] === expected[stream]) {
        tally.bytesChecked += encoder.encode(expected[stream]).length;
      } else {
        tally.fail(
          `${name} ${stream}: got ${execution[stream].length} chars, expected ` +
            `${expected[stream].length}; first difference at ${
              firstDifference(execution[stream], expected[stream])
            }`,
        );
      }
    }
  }
}

function firstDifference(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index;
}

/** Processes still carrying `tag` once the servers are gone, after up to 5 s for stragglers. */
async function orphansOf(tag: string): Promise<number> {
  const deadline = performance.now() + 5_000;
  while (processesWithMarker(tag).length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return processesWithMarker(tag).length;
}

/** Nearest-rank percentile, or 0 when there are no samples (no HTTP sessions, say). */
function percentileOr0(samples: readonly number[], fraction: number): number {
  return samples.length === 0 ? 0 : percentile(samples, fraction);
}

/** Runs the load described by `options` against fresh servers and measures it. */
export async function runLoad(options: LoadOptions = {}): Promise<LoadResult> {
  const settings: Required<LoadOptions> = {
    stdioExecutions: 50,
    stdioPollers: 10,
    httpClients: 0,
    httpExecutionsPerClient: 5,
    lines: 500,
    lineIntervalMs: 10,
    pollIntervalMs: 20,
    deadlineMs: 120_000,
    ...options,
  };
  const { stdioExecutions, stdioPollers, httpClients, httpExecutionsPerClient } = settings;
  const tag = marker();
  const bytesPerExecution = settings.lines * lineText(0, 0).length;
  const perServer = Math.max(stdioExecutions, httpClients * httpExecutionsPerClient);
  const env = {
    TEST_MARKER: tag,
    // Far more than any execution prints: eviction would hide a lost byte.
    YIELDSHELL_MAX_BUFFER_BYTES: String(Math.max(4 * 1024 * 1024, 4 * bytesPerExecution)),
    YIELDSHELL_MAX_PROCESSES: String(perServer + 10),
  };
  const tally = new Tally();
  const stdio = stdioExecutions > 0 ? await startServer({ env }) : null;
  let http: HttpServerProcess | null = null;
  const httpSessions: Client[] = [];
  let started = performance.now();
  try {
    if (httpClients > 0) http = await startHttpServer({ env });
    const url = http?.url;
    started = performance.now();
    const deadline = performance.now() + settings.deadlineMs;
    const runs: Promise<void>[] = [];
    if (stdio !== null) {
      const call = callerOf(stdio.client);
      runs.push((async () => {
        const indices = Array.from({ length: stdioExecutions }, (_, index) => index);
        const tracked = await startExecutions(tally, "stdio", call, indices, settings);
        await Promise.all(Array.from({ length: stdioPollers }, (_, poller) =>
          pollUntilDone(
            tally,
            "stdio",
            call,
            tracked.filter((_, index) => index % stdioPollers === poller),
            settings,
            deadline,
          )));
        verify(tally, "stdio", tracked, settings.lines);
      })());
    }
    if (url !== undefined) {
      for (let session = 0; session < httpClients; session++) {
        runs.push(
          (async () => {
            const client = new Client({ name: `yieldshell-load-${session}`, version: "1.0.0" });
            httpSessions.push(client);
            await client.connect(new StreamableHTTPClientTransport(new URL(url)));
            const call = callerOf(client);
            const first = stdioExecutions + session * httpExecutionsPerClient;
            const indices = Array.from({ length: httpExecutionsPerClient }, (_, i) => first + i);
            const tracked = await startExecutions(tally, "http", call, indices, settings);
            await pollUntilDone(tally, "http", call, tracked, settings, deadline);
            verify(tally, "http", tracked, settings.lines);
          })().catch((error) => tally.fail(`http session ${session}: ${error}`)),
        );
      }
    }
    await Promise.all(runs);
  } finally {
    await Promise.all(httpSessions.map((client) => client.close().catch(() => {})));
    await http?.stop();
    await stdio?.[Symbol.asyncDispose]();
  }
  const elapsedMs = performance.now() - started;
  const roundTrips = (tool: string, transport?: Transport) =>
    tally.roundTrips.filter((sample) =>
      sample.tool === tool && (transport === undefined || sample.transport === transport)
    ).map((sample) => sample.ms);
  const reads = roundTrips("read");
  const byTransport = (transport: Transport) => ({
    reads: roundTrips("read", transport).length,
    p95Ms: percentileOr0(roundTrips("read", transport), 0.95),
  });
  return {
    requests: tally.requests,
    failures: tally.failures,
    p95Ms: percentileOr0(reads, 0.95),
    bytesChecked: tally.bytesChecked,
    executions: stdioExecutions + httpClients * httpExecutionsPerClient,
    clients: (stdio === null ? 0 : stdioPollers) + httpClients,
    p50Ms: percentileOr0(reads, 0.5),
    maxMs: percentileOr0(reads, 1),
    startP95Ms: percentileOr0(roundTrips("execute"), 0.95),
    byTransport: { stdio: byTransport("stdio"), http: byTransport("http") },
    elapsedMs,
    orphans: await orphansOf(tag),
    problems: tally.problems,
  };
}
