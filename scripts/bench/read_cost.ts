import { type Session, startServer } from "../../tests/e2e/harness.ts";
import { callOk, NONE, waitExited, xBytesCommand } from "./session.ts";
import { median } from "./stats.ts";
import type { SectionResult } from "./table.ts";

const PAGE_BYTES = 20_000;
const BUFFER_BYTES = 16 * 1_048_576;
const READS = 300;
const WARMUP_READS = 5;
const TARGET_RATIO = 1.2;

interface Retained {
  label: string;
  bytes: number;
  executionId: string;
  sinceSeq: number;
  samples: number[];
}

async function retain(session: Session, label: string, bytes: number): Promise<Retained> {
  const started = await callOk(session, "execute", {
    command: xBytesCommand(bytes),
    side_effects: NONE,
    yield_ms: 0,
    max_output_bytes: 1,
  });
  const last = await waitExited(session, started.execution_id);
  if (last.latest_seq !== bytes + 1) throw new Error(`Retained ${last.latest_seq - 1} of ${bytes}`);
  return {
    label,
    bytes,
    executionId: started.execution_id,
    sinceSeq: last.latest_seq - PAGE_BYTES,
    samples: [],
  };
}

async function pageRead(session: Session, retained: Retained): Promise<number> {
  const started = performance.now();
  const page = await callOk(session, "read", {
    execution_id: retained.executionId,
    since_seq: retained.sinceSeq,
    max_output_bytes: PAGE_BYTES,
  });
  const elapsed = performance.now() - started;
  if (page.stdout.length !== PAGE_BYTES || page.evicted) {
    throw new Error(`Page read of ${retained.label} returned ${page.stdout.length} bytes`);
  }
  return elapsed;
}

/** A 20 KB page read near the end with ~0, 1 MB and 8 MB retained. */
export async function benchReadCost(): Promise<SectionResult> {
  await using session = await startServer({
    env: { YIELDSHELL_MAX_BUFFER_BYTES: String(BUFFER_BYTES) },
  });
  const cases = [
    await retain(session, "page only", PAGE_BYTES),
    await retain(session, "1 MB", 1_000_000),
    await retain(session, "8 MB", 8_000_000),
  ];
  for (let read = 0; read < WARMUP_READS; read++) {
    for (const retained of cases) await pageRead(session, retained);
  }
  for (let read = 0; read < READS; read++) {
    // Rotate the order so no case always follows the same one.
    for (let index = 0; index < cases.length; index++) {
      const retained = cases[(read + index) % cases.length];
      retained.samples.push(await pageRead(session, retained));
    }
  }
  const [empty, ...larger] = cases;
  const emptyMedian = median(empty.samples);
  return {
    rows: larger.map((retained) => {
      const ours = median(retained.samples);
      return {
        figure: `read of a 20 KB page, ${retained.label} retained (median)`,
        ours,
        baseline: emptyMedian,
        unit: "ms",
        target: `≤ ${TARGET_RATIO}× nothing retained (flat)`,
        met: ours <= TARGET_RATIO * emptyMedian,
      };
    }),
    notes: [
      `Read cost: the server runs with YIELDSHELL_MAX_BUFFER_BYTES=${BUFFER_BYTES} (16 MiB) so nothing is evicted; three completed executions retain 20 KB (just the page: the "nothing retained" baseline), 1 MB and 8 MB of stdout. Each read is \`read\` with since_seq = latest_seq − ${PAGE_BYTES} and max_output_bytes ${PAGE_BYTES}, so every read returns the same ${PAGE_BYTES} bytes; ${READS} reads per case in rotating order after ${WARMUP_READS} warm-ups, median round trip at the client.`,
    ],
  };
}
