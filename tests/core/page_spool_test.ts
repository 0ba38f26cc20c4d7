import assert from "node:assert/strict";
import { EVICTED_HINT } from "../../src/contract/texts.ts";
import type { Execution } from "../../src/core/execution.ts";
import { OutputLog } from "../../src/core/output_log.ts";
import { readPage } from "../../src/core/page.ts";
import type { SpoolOptions } from "../../src/core/spool.ts";
import { openTestSpool } from "./spool_fixture.ts";

const REQUEST = {
  sinceSeq: 1,
  tailLines: null,
  streams: "both" as const,
  maxOutputBytes: 100,
  truncation: "head" as const,
};

/** The hint of a since_seq=1 page after 300 KB of output, for a log made by `make`. */
async function hintAfterFlood(
  options: Partial<SpoolOptions>,
  capacityBytes: number,
): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "yieldshell-page-spool-" });
  try {
    await using spool = openTestSpool(root, { segmentBytes: 16_384, ...options });
    const log = new OutputLog({ capacityBytes, spool: spool.forExecution() });
    for (let i = 0; i < 30_000; i++) log.append("stdout", new TextEncoder().encode(`line ${i}\n`));
    const execution = { id: "exec_1", log, resumeCursor: 1 } as unknown as Execution;
    const page = readPage(execution, REQUEST, {
      capBytes: 20_000,
      redaction: { text: (text: string) => text, stream: () => null },
    });
    log.close();
    assert.equal(page.evicted, true);
    return page.hint as string;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("the evicted hint names the setting that evicted the output", async (t) => {
  await t.step("max_spool_bytes", async () => {
    const hint = await hintAfterFlood({ maxStreamBytes: 50_000 }, 4096);
    assert.match(
      hint,
      /cannot be recovered; this stream outgrew YIELDSHELL_MAX_SPOOL_BYTES \(max_spool_bytes\), raise it/,
    );
  });
  await t.step("max_spool_total_bytes", async () => {
    const hint = await hintAfterFlood({ maxTotalBytes: 60_000 }, 4096);
    assert.match(hint, /reached YIELDSHELL_MAX_SPOOL_TOTAL_BYTES \(max_spool_total_bytes\)/);
  });
  await t.step("a spool directory that cannot be used: the ring buffer, and why", async () => {
    const hint = await hintAfterFlood({ root: "/dev/null/spool" }, 4096);
    assert.ok(
      hint.includes(
        `${EVICTED_HINT} Output is kept in memory only, as the spool directory /dev/null/spool cannot be used`,
      ),
      hint,
    );
  });
  await t.step("spool off: the contract's hint, unchanged", () => {
    const log = new OutputLog({ capacityBytes: 10 });
    log.append("stdout", new TextEncoder().encode("0123456789abcdef"));
    const execution = { id: "exec_1", log, resumeCursor: 1 } as unknown as Execution;
    const page = readPage(execution, REQUEST, {
      capBytes: 20_000,
      redaction: { text: (text: string) => text, stream: () => null },
    });
    assert.equal(page.hint, EVICTED_HINT);
  });
});
