/**
 * Load (issue #7): executions stream numbered lines for seconds while clients poll them with
 * cursorless reads, over stdio (one session, ten concurrent polling loops) and over HTTP
 * (separate sessions, each with its own executions). No request may fail and no byte may be
 * lost: each execution's output is reassembled from the polls and compared exactly. The p95
 * round trip is printed. `runLoad` lives in load_harness.ts so the bench can reuse it.
 *
 * Sizes (for a 2-core machine): by default 50 stdio executions printing 150 lines each
 * (about 1.5 s) plus 4 HTTP sessions × 5 executions; `YIELDSHELL_LONG_TESTS=1` makes it 500
 * lines each (about 5 s) and 10 HTTP sessions. YIELDSHELL_MAX_BUFFER_BYTES is set to 4 MiB per
 * stream, hundreds of times what an execution prints, so nothing is evicted.
 */
import assert from "node:assert/strict";
import { type LoadOptions, runLoad } from "./load_harness.ts";
import { linux } from "../os.ts";

const LONG = Deno.env.get("YIELDSHELL_LONG_TESTS") === "1";

const OPTIONS: LoadOptions = {
  stdioExecutions: 50,
  stdioPollers: 10,
  httpClients: LONG ? 10 : 4,
  httpExecutionsPerClient: 5,
  lines: LONG ? 500 : 150,
  lineIntervalMs: 10,
};

// Linux only: orphans are counted in /proc, and the loop needs bash 4.1+ (`exec {pause}<>`).
linux.test("load: streaming executions polled concurrently lose no byte and fail no request", async () => {
  const result = await runLoad(OPTIONS);
  const { stdio, http } = result.byTransport;
  console.log(
    `load: ${result.executions} executions, ${result.clients} clients ` +
      `(${OPTIONS.stdioPollers} stdio pollers on one session, ${OPTIONS.httpClients} HTTP ` +
      `sessions), ${result.requests} requests in ${(result.elapsedMs / 1000).toFixed(1)} s, ` +
      `${result.failures} failures, ${result.bytesChecked} bytes verified; poll round trip ` +
      `p50 ${result.p50Ms.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms (stdio ` +
      `${stdio.p95Ms.toFixed(1)} over ${stdio.reads} reads, HTTP ${http.p95Ms.toFixed(1)} over ` +
      `${http.reads} reads), max ${result.maxMs.toFixed(1)} ms; start burst p95 ` +
      `${result.startP95Ms.toFixed(1)} ms`,
  );
  assert.deepEqual(result.problems, []);
  assert.equal(result.failures, 0);
  // Every line is "eNNNN line NNNNN\n", 17 bytes.
  assert.equal(result.bytesChecked, result.executions * OPTIONS.lines! * 17);
  assert.equal(result.orphans, 0);
});
