import { type Session, startServer } from "../../tests/e2e/harness.ts";
import { callOk, NONE } from "./session.ts";
import { median, percentile } from "./stats.ts";
import type { SectionResult } from "./table.ts";

/** Calls that warm the client's own code (the SDK under V8) on a server that is then closed. */
const CLIENT_WARMUP_CALLS = 300;
/** Unmeasured calls of a fresh client before its first measured ones (the former protocol). */
const COLD_SKIPPED_CALLS = 10;
/** The first calls of a fresh client or server, measured as figures of their own. */
const FRESH_CALLS = 100;
/** Further unmeasured calls until the server's hot path is optimized too. */
const SERVER_WARMUP_CALLS = 300;
const CALLS = 200;
/** Calls at an agent's pace: one every {@linkcode PACE_MS}, so the standby is ready. */
const PACED_CALLS = 60;
const PACE_MS = 50;
const TARGET_RATIO = 1.3;
const COMMAND = "echo hello";

async function execute(session: Session): Promise<number> {
  const started = performance.now();
  const payload = await callOk(session, "execute", { command: COMMAND, side_effects: NONE });
  const elapsed = performance.now() - started;
  if (payload.status !== "completed" || payload.stdout !== "hello\n") {
    throw new Error(`execute of ${COMMAND} answered ${JSON.stringify(payload)}`);
  }
  return elapsed;
}

async function direct(): Promise<number> {
  const started = performance.now();
  const output = await new Deno.Command("/bin/sh", { args: ["-c", COMMAND] }).output();
  const elapsed = performance.now() - started;
  if (new TextDecoder().decode(output.stdout) !== "hello\n") {
    throw new Error(`${COMMAND} printed something else`);
  }
  return elapsed;
}

/**
 * `calls` interleaved samples of ours and of the baseline, alternating who goes first; with
 * `paceMs`, that long a pause before each pair.
 */
async function interleaved(session: Session, calls: number, paceMs = 0) {
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let call = 0; call < calls; call++) {
    if (paceMs > 0) await new Promise((resolve) => setTimeout(resolve, paceMs));
    if (call % 2 === 0) {
      ours.push(await execute(session));
      baseline.push(await direct());
    } else {
      baseline.push(await direct());
      ours.push(await execute(session));
    }
  }
  return { ours, baseline };
}

/**
 * `echo hello` through `execute` against spawn-and-collect with `Deno.Command`, from a warm
 * client: the SDK client's own code runs several times slower until V8 has optimized it, which
 * a long-lived client (or an independent harness) has long done.
 */
export async function benchRoundTrip(): Promise<SectionResult> {
  let cold;
  {
    await using warmup = await startServer();
    for (let call = 0; call < COLD_SKIPPED_CALLS; call++) await execute(warmup);
    cold = await interleaved(warmup, FRESH_CALLS);
    const rest = CLIENT_WARMUP_CALLS - COLD_SKIPPED_CALLS - FRESH_CALLS;
    for (let call = 0; call < rest; call++) await execute(warmup);
  }
  await using session = await startServer();
  const fresh = await interleaved(session, FRESH_CALLS);
  for (let call = 0; call < SERVER_WARMUP_CALLS; call++) {
    await execute(session);
    await direct();
  }
  const { ours, baseline } = await interleaved(session, CALLS);
  const paced = await interleaved(session, PACED_CALLS, PACE_MS);
  const oursP50 = median(ours);
  const baselineP50 = median(baseline);
  return {
    rows: [
      {
        figure: "round trip p50 (execute `echo hello`)",
        ours: oursP50,
        baseline: baselineP50,
        unit: "ms",
        target: `≤ ${TARGET_RATIO}× baseline`,
        met: oursP50 <= TARGET_RATIO * baselineP50,
      },
      {
        figure: `round trip p50 at an agent's pace (a call every ${PACE_MS} ms)`,
        ours: median(paced.ours),
        baseline: median(paced.baseline),
        unit: "ms",
        target: `≤ ${TARGET_RATIO}× baseline`,
        met: median(paced.ours) <= TARGET_RATIO * median(paced.baseline),
      },
      {
        figure: "round trip p95 (execute `echo hello`)",
        ours: percentile(ours, 0.95),
        baseline: percentile(baseline, 0.95),
        unit: "ms",
        target: "—",
        met: null,
      },
      {
        figure: `round trip p50, calls ${COLD_SKIPPED_CALLS + 1}-${
          COLD_SKIPPED_CALLS + FRESH_CALLS
        } of a fresh client and server`,
        ours: median(cold.ours),
        baseline: median(cold.baseline),
        unit: "ms",
        target: "—",
        met: null,
      },
      {
        figure: `round trip p50, first ${FRESH_CALLS} calls of a fresh server, warm client`,
        ours: median(fresh.ours),
        baseline: median(fresh.baseline),
        unit: "ms",
        target: "—",
        met: null,
      },
    ],
    notes: [
      `Round trip: the client first makes ${CLIENT_WARMUP_CALLS} calls to a server it then closes, to warm its own code (the SDK client under V8); calls ${
        COLD_SKIPPED_CALLS + 1
      }-${
        COLD_SKIPPED_CALLS + FRESH_CALLS
      } of them are the "fresh client and server" row (the protocol this bench used before: ${COLD_SKIPPED_CALLS} warm-ups, then measured). Then a fresh server with the default configuration: its first ${FRESH_CALLS} calls (the "fresh server, warm client" row), ${SERVER_WARMUP_CALLS} unmeasured ones, then ${CALLS} measured back to back (the p50 and p95 rows), then ${PACED_CALLS} with a ${PACE_MS} ms pause before each (the agent's pace row: the standby, which waits for 10 ms of quiet, is ready for those); every measured call is interleaved with a baseline sample. Ours: \`execute\` of \`${COMMAND}\` (default yield_ms, so it answers inline) measured at the client. Baseline: \`new Deno.Command("/bin/sh", { args: ["-c", "${COMMAND}"] }).output()\` in the bench process.`,
    ],
  };
}
