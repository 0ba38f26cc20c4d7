import { startServer } from "../../tests/e2e/harness.ts";
import { callOk, NONE } from "./session.ts";
import { median, percentile } from "./stats.ts";
import type { SectionResult } from "./table.ts";

const CALLS = 200;
const WARMUP_CALLS = 10;
const TARGET_RATIO = 1.3;
const COMMAND = "echo hello";

/** `echo hello` through `execute` against spawn-and-collect with `Deno.Command`. */
export async function benchRoundTrip(): Promise<SectionResult> {
  await using session = await startServer();
  const execute = async (): Promise<number> => {
    const started = performance.now();
    const payload = await callOk(session, "execute", { command: COMMAND, side_effects: NONE });
    const elapsed = performance.now() - started;
    if (payload.status !== "completed" || payload.stdout !== "hello\n") {
      throw new Error(`execute of ${COMMAND} answered ${JSON.stringify(payload)}`);
    }
    return elapsed;
  };
  const direct = async (): Promise<number> => {
    const started = performance.now();
    const output = await new Deno.Command("/bin/sh", { args: ["-c", COMMAND] }).output();
    const elapsed = performance.now() - started;
    if (new TextDecoder().decode(output.stdout) !== "hello\n") {
      throw new Error(`${COMMAND} printed something else`);
    }
    return elapsed;
  };
  for (let call = 0; call < WARMUP_CALLS; call++) {
    await execute();
    await direct();
  }
  const oursMs: number[] = [];
  const directMs: number[] = [];
  for (let call = 0; call < CALLS; call++) {
    if (call % 2 === 0) {
      oursMs.push(await execute());
      directMs.push(await direct());
    } else {
      directMs.push(await direct());
      oursMs.push(await execute());
    }
  }
  const oursP50 = median(oursMs);
  const directP50 = median(directMs);
  return {
    rows: [
      {
        figure: "round trip p50 (execute `echo hello`)",
        ours: oursP50,
        baseline: directP50,
        unit: "ms",
        target: `≤ ${TARGET_RATIO}× baseline`,
        met: oursP50 <= TARGET_RATIO * directP50,
      },
      {
        figure: "round trip p95 (execute `echo hello`)",
        ours: percentile(oursMs, 0.95),
        baseline: percentile(directMs, 0.95),
        unit: "ms",
        target: "—",
        met: null,
      },
    ],
    notes: [
      `Round trip: ${CALLS} calls each (after ${WARMUP_CALLS} warm-ups), interleaved, one server with the default configuration. Ours: \`execute\` of \`${COMMAND}\` (default yield_ms, so it answers inline) measured at the client. Baseline: \`new Deno.Command("/bin/sh", { args: ["-c", "${COMMAND}"] }).output()\` in the bench process.`,
    ],
  };
}
