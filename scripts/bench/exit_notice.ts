import { type Session, startServer } from "../../tests/e2e/harness.ts";
import { callOk, NONE } from "./session.ts";
import { epochMs, median } from "./stats.ts";
import type { SectionResult } from "./table.ts";

/** Unmeasured calls first, so client and server run optimized code (see round_trip.ts). */
const WARMUP_CALLS = 300;
const WARMUP_RUNS = 3;
const RUNS = 30;
const TARGET_RATIO = 1.5;
/** Prints its own exit time (epoch ns) as its last act. */
const COMMAND = "sleep 0.2; date +%s%N";

function exitTimeMs(output: string): number {
  const match = /(\d{19})\s*$/.exec(output);
  if (match === null) throw new Error(`No exit time in ${JSON.stringify(output)}`);
  // Split to keep sub-millisecond precision within a double.
  return Number(match[1].slice(0, 13)) + Number(match[1].slice(13)) / 1e6;
}

/** A backgrounded command, then `wait`: ms from the command's exit to `wait` returning. */
async function noticeOurs(session: Session): Promise<number> {
  const started = await callOk(session, "execute", {
    command: COMMAND,
    side_effects: NONE,
    yield_ms: 0,
  });
  if (started.status !== "backgrounded") throw new Error(`execute said ${started.status}`);
  const waited = await callOk(session, "wait", {
    execution_id: started.execution_id,
    timeout_ms: 10_000,
  });
  const returned = epochMs();
  if (waited.wait_result !== "exited") throw new Error(`wait said ${waited.wait_result}`);
  return returned - exitTimeMs(started.stdout + waited.stdout);
}

/** The same command through `Deno.Command`: ms from its exit to its status resolving. */
async function noticeDirect(): Promise<number> {
  const output = await new Deno.Command("/bin/sh", { args: ["-c", COMMAND] }).output();
  const resolved = epochMs();
  return resolved - exitTimeMs(new TextDecoder().decode(output.stdout));
}

/** How long after a background command exits `wait` returns. */
export async function benchExitNotice(): Promise<SectionResult> {
  await using session = await startServer();
  for (let call = 0; call < WARMUP_CALLS; call++) {
    await callOk(session, "execute", { command: "echo warm", side_effects: NONE });
  }
  for (let run = 0; run < WARMUP_RUNS; run++) {
    await noticeOurs(session);
    await noticeDirect();
  }
  const ours: number[] = [];
  const direct: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    if (run % 2 === 0) {
      ours.push(await noticeOurs(session));
      direct.push(await noticeDirect());
    } else {
      direct.push(await noticeDirect());
      ours.push(await noticeOurs(session));
    }
  }
  const oursMedian = median(ours);
  const directMedian = median(direct);
  return {
    rows: [{
      figure: "exit notice: exit to `wait` returning (median)",
      ours: oursMedian,
      baseline: directMedian,
      unit: "ms",
      target: `≤ ${TARGET_RATIO}× baseline`,
      met: oursMedian <= TARGET_RATIO * directMedian,
    }],
    notes: [
      `Exit notice: after ${WARMUP_CALLS} unmeasured \`echo\` calls and ${WARMUP_RUNS} unmeasured runs, \`${COMMAND}\` started with execute yield_ms 0, then \`wait\`; the command prints its exit time (epoch ns) as its last act, and the delay is the client's clock when \`wait\` returned minus that time (same host clock). ${RUNS} interleaved runs, median. Baseline: the same command through \`Deno.Command(...).output()\` in the bench process, delay to its resolution (no MCP, no JSON-RPC).`,
    ],
  };
}
