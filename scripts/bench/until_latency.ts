/**
 * Draft bench section (not yet in scripts/bench.ts; run it alone with
 * `deno run -P=test scripts/bench/until_latency.ts`): the time from a matching output line to the
 * condition watcher's resolution, against a plain pipe reader noticing the same line. When `until`
 * is wired into wait and execute, the section should measure the line to the tool reply instead.
 */
import { watchConditions } from "../../src/core/condition_watch.ts";
import { parseUntil } from "../../src/core/conditions.ts";
import { createPortProbe } from "../../src/platform/port_probe.ts";
import { createRegexRunner, type RegexWorkerRunner } from "../../src/platform/regex_worker.ts";
import { spawnOutputSource } from "../../tests/core/process_output_source.ts";
import { epochMs, median, percentile } from "./stats.ts";
import { renderText, type SectionResult } from "./table.ts";

const RUNS = 15;
const TARGET_MS = 20;
/** Prints its own time (epoch ns) on the matching line, then keeps running like a dev server. */
const COMMAND = 'sleep 0.2; echo "compiling"; echo "ready at $(date +%s%N)"; exec sleep 10';
const PATTERN = "ready at (\\d{19})";

function lineTimeMs(text: string): number {
  const match = /(\d{19})/.exec(text);
  if (match === null) throw new Error(`No line time in ${JSON.stringify(text)}`);
  // Split to keep sub-millisecond precision within a double.
  return Number(match[1].slice(0, 13)) + Number(match[1].slice(13)) / 1e6;
}

/** Ours: the watcher over a real child's pipes, regex in the shared (warm) worker. */
async function watcherDelay(regex: RegexWorkerRunner): Promise<number> {
  const decision = parseUntil({ output: PATTERN });
  if (!decision.ok) throw new Error(decision.error);
  await using child = spawnOutputSource(COMMAND);
  using watch = watchConditions(child.source, decision.conditions, {
    cursorSeq: 1,
    regex,
    probe: createPortProbe(),
  });
  const hit = await watch.result;
  const resolvedAt = epochMs();
  if (hit?.kind !== "output") throw new Error(`watch ended with ${JSON.stringify(hit)}`);
  return resolvedAt - lineTimeMs(hit.text);
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

/** Time from a matching line to the condition watcher's resolution. */
export async function benchUntilLatency(): Promise<SectionResult> {
  using regex = createRegexRunner();
  await watcherDelay(regex);
  await readerDelay();
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    ours.push(await watcherDelay(regex));
    baseline.push(await readerDelay());
  }
  const oursMedian = median(ours);
  return {
    rows: [
      {
        figure: "until output: matching line to watcher resolution (median)",
        ours: oursMedian,
        baseline: median(baseline),
        unit: "ms",
        target: `≤ ${TARGET_MS} ms`,
        met: oursMedian <= TARGET_MS,
      },
      {
        figure: "until output: matching line to watcher resolution (p90)",
        ours: percentile(ours, 0.9),
        baseline: percentile(baseline, 0.9),
        unit: "ms",
        target: "—",
        met: null,
      },
    ],
    notes: [
      `Until latency: \`${COMMAND}\` prints its own time (epoch ns) on the matching line; the delay is the bench's clock when the watcher resolved minus that time (same host clock), watching \`${PATTERN}\` with the shared regex worker warmed by the watch. ${RUNS} interleaved runs after one warm-up, median and p90. Baseline: a plain reader of the same child's stdout noticing the line. Both include the shell's \`date\` and pipe wake-ups.`,
    ],
  };
}

if (import.meta.main) {
  const result = await benchUntilLatency();
  console.log(renderText(result.rows));
  for (const note of result.notes) console.log(`\n${note}`);
}
