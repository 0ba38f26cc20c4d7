import { startServer } from "../../tests/e2e/harness.ts";
import { BaselineProcess } from "./baseline_process.ts";
import { settledRss, toMb } from "./proc_status.ts";
import { callOk, NONE } from "./session.ts";
import { sleep } from "./stats.ts";
import type { SectionResult } from "./table.ts";

const EXECUTIONS = 50;
const COMMAND = "sleep 60";
const SETTLE_MS = 1_500;
const TARGET_MB = 60;

/** Server RSS with 50 live background executions, above the idle server. */
export async function benchLiveMemory(): Promise<SectionResult> {
  let oursGrowth: number;
  {
    await using session = await startServer();
    await callOk(session, "execute", { command: "echo warm", side_effects: NONE });
    await sleep(SETTLE_MS);
    const idle = await settledRss(session.pid);
    const ids: string[] = [];
    try {
      for (let index = 0; index < EXECUTIONS; index++) {
        const started = await callOk(session, "execute", {
          command: COMMAND,
          side_effects: NONE,
          yield_ms: 0,
        });
        ids.push(started.execution_id);
      }
      await sleep(SETTLE_MS);
      oursGrowth = await settledRss(session.pid) - idle;
    } finally {
      await Promise.all(
        ids.map((id) =>
          session.call("stop", { execution_id: id, signal: "SIGKILL" }).catch(() => {})
        ),
      );
    }
  }
  let baselineGrowth: number;
  {
    await using child = await BaselineProcess.start();
    await child.send("drain echo warm");
    await sleep(SETTLE_MS);
    const idle = await settledRss(child.pid);
    try {
      await child.send(`hold ${EXECUTIONS} ${COMMAND}`);
      await sleep(SETTLE_MS);
      baselineGrowth = await settledRss(child.pid) - idle;
    } finally {
      await child.send("release");
    }
  }
  const oursMb = toMb(oursGrowth);
  return {
    rows: [{
      figure: `RSS of ${EXECUTIONS} live executions above idle`,
      ours: oursMb,
      baseline: toMb(baselineGrowth),
      unit: "MB",
      target: `< ${TARGET_MB} MB`,
      met: oursMb < TARGET_MB,
    }],
    notes: [
      `Live memory: ${EXECUTIONS} × \`${COMMAND}\` started with yield_ms 0 (default configuration, so YIELDSHELL_MAX_PROCESSES 50 is just reached); VmRSS of the server process (median of 5 readings 100 ms apart, after ${SETTLE_MS} ms of settling) minus the same for the idle server after one warm-up execute. All ${EXECUTIONS} are stopped with SIGKILL afterwards. Baseline: a plain Deno process (scripts/bench/baseline_child.ts) holding ${EXECUTIONS} children with piped stdio and pending reads, measured the same way. The children themselves and the server's guardian shell are separate processes and not counted.`,
    ],
  };
}
