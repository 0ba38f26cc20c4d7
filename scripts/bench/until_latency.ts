/**
 * Bench section "until": the time from a matching output line to the `wait ... until` reply
 * through the server (against a plain pipe reader noticing the same line), and the calls and
 * bytes an agent spends to learn that a dev server is ready, with `until` and by polling `read`.
 */
import { type Session, startServer } from "../../tests/e2e/harness.ts";
import { callOk, NONE, type Payload } from "./session.ts";
import { epochMs, median, percentile, sleep } from "./stats.ts";
import { renderText, type SectionResult } from "./table.ts";

const RUNS = 15;
const TARGET_MS = 20;
/** Prints its own time (epoch ns) on the matching line, then keeps running like a dev server. */
const COMMAND = 'sleep 1; echo "compiling"; echo "ready at $(date +%s%N)"; exec sleep 10';
const PATTERN = "ready at (\\d{19})";
/** A dev server that is ready after 1.5 s. */
const DEV_SERVER = 'echo "vite dev"; sleep 1.5; echo "ready in 1500 ms"; exec sleep 30';
/** How often the polling agent reads. */
const POLL_MS = 250;

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

function lineTimeMs(text: string): number {
  const match = /(\d{19})/.exec(text);
  if (match === null) throw new Error(`No line time in ${JSON.stringify(text)}`);
  // Split to keep sub-millisecond precision within a double.
  return Number(match[1].slice(0, 13)) + Number(match[1].slice(13)) / 1e6;
}

/** Ours: a backgrounded command, then `wait until output`: line to the reply. */
async function replyDelay(session: Session): Promise<number> {
  const started = await callOk(session, "execute", {
    command: COMMAND,
    side_effects: NONE,
    yield_ms: 0,
  });
  const waited = await callOk(session, "wait", {
    execution_id: started.execution_id,
    timeout_ms: 10_000,
    until: { output: PATTERN },
  });
  const repliedAt = epochMs();
  if (waited.wait_result !== "output_matched") throw new Error(`wait said ${waited.wait_result}`);
  await callOk(session, "stop", { execution_id: started.execution_id, signal: "SIGKILL" });
  return repliedAt - lineTimeMs(waited.match.text);
}

/** Baseline: a plain reader of the same child's stdout noticing the line (no regex worker). */
async function readerDelay(): Promise<number> {
  const child = new Deno.Command("/bin/sh", { args: ["-c", COMMAND], stdout: "piped" }).spawn();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for await (const chunk of child.stdout) {
      text += decoder.decode(chunk, { stream: true });
      const line = /ready at \d{19}\n/.exec(text);
      if (line !== null) return epochMs() - lineTimeMs(line[0]);
    }
    throw new Error("The child ended before its line");
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
}

/** Calls and bytes (request arguments, structured result and its JSON text) of one call. */
async function counted(
  session: Session,
  tally: { calls: number; bytes: number },
  name: string,
  args: Record<string, unknown>,
): Promise<Payload> {
  const reply = await session.call(name, args);
  if (reply.isError) throw new Error(`${name} failed: ${reply.text}`);
  tally.calls++;
  tally.bytes += bytesOf({ name, arguments: args }) + bytesOf(reply.payload) + bytesOf(reply.text);
  return reply.payload;
}

/** One call: execute with until returns backgrounded at the ready line. */
async function readyWithUntil(session: Session) {
  const tally = { calls: 0, bytes: 0 };
  const started = await counted(session, tally, "execute", {
    command: DEV_SERVER,
    side_effects: NONE,
    yield_ms: 30_000,
    until: { output: "ready in" },
  });
  if (started.until_result !== "output_matched") throw new Error(`execute said ${started.status}`);
  await callOk(session, "stop", { execution_id: started.execution_id, signal: "SIGKILL" });
  return tally;
}

/** Without until: start it in the background, then read every POLL_MS until the line shows. */
async function readyByPolling(session: Session) {
  const tally = { calls: 0, bytes: 0 };
  const started = await counted(session, tally, "execute", {
    command: DEV_SERVER,
    side_effects: NONE,
    yield_ms: 0,
  });
  let seen = started.stdout as string;
  while (!seen.includes("ready in")) {
    await sleep(POLL_MS);
    const read = await counted(session, tally, "read", { execution_id: started.execution_id });
    seen += read.stdout;
  }
  await callOk(session, "stop", { execution_id: started.execution_id, signal: "SIGKILL" });
  return tally;
}

/** Time from a matching line to the reply, and what learning "ready" costs with and without until. */
export async function benchUntilLatency(): Promise<SectionResult> {
  await using session = await startServer();
  await replyDelay(session);
  await readerDelay();
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    ours.push(await replyDelay(session));
    baseline.push(await readerDelay());
  }
  const oursMedian = median(ours);
  const until = await readyWithUntil(session);
  const polling = await readyByPolling(session);
  return {
    rows: [
      {
        figure: "until output: matching line to the wait reply (median)",
        ours: oursMedian,
        baseline: median(baseline),
        unit: "ms",
        target: `≤ ${TARGET_MS} ms`,
        met: oursMedian <= TARGET_MS,
      },
      {
        figure: "until output: matching line to the wait reply (p90)",
        ours: percentile(ours, 0.9),
        baseline: percentile(baseline, 0.9),
        unit: "ms",
        target: "—",
        met: null,
      },
      {
        figure: "dev server ready: calls, until vs polling read",
        ours: until.calls,
        baseline: polling.calls,
        unit: "calls",
        target: "—",
        met: null,
      },
      {
        figure: "dev server ready: bytes, until vs polling read",
        ours: until.bytes,
        baseline: polling.bytes,
        unit: "B",
        target: "—",
        met: null,
      },
    ],
    notes: [
      `Until latency: \`${COMMAND}\` started with \`execute yield_ms 0\`, then \`wait until {output: "${PATTERN}"}\` over stdio on the server started as the README does (the 1 s sleep puts the wait in place before the line); the delay is the bench's clock when the reply arrived minus the time the line carries (same host clock). ${RUNS} interleaved runs after one warm-up, median and p90. Baseline: a plain reader of the same child's stdout noticing the line (no MCP, no regex). Both include the shell's \`date\` and pipe wake-ups.`,
      `Dev server ready: \`${DEV_SERVER}\`. With until: one \`execute\` with \`until: {output: "ready in"}\` and yield_ms 30000. Polling: \`execute yield_ms 0\`, then a cursorless \`read\` every ${POLL_MS} ms until the line shows. Bytes: the JSON of each call's name and arguments plus its structured result and the same object as JSON text.`,
    ],
  };
}

if (import.meta.main) {
  const result = await benchUntilLatency();
  console.log(renderText(result.rows));
  for (const note of result.notes) console.log(`\n${note}`);
}
