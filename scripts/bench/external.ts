import type { SectionResult } from "./table.ts";

/** What `scripts/bench_policy.ts` exports. */
type BenchPolicy = () => Promise<{ name: string; p50Ms: number; p99Ms: number }[]>;
/** What `scripts/bench_http.ts` exports. */
type BenchHttp = () => Promise<
  { figure: string; ours: number; baseline: number | null; unit: string }[]
>;

const POLICY_TARGET_MS = 1;

/** Imports an optional bench module by file name next to bench.ts; a reason string if absent. */
async function importOptional<T>(file: string, exportName: string): Promise<T | string> {
  const url = new URL(`../${file}`, import.meta.url);
  try {
    await Deno.stat(url);
  } catch {
    return `scripts/${file} is not there`;
  }
  try {
    // A computed specifier: the bench type-checks and runs without these files.
    const module = await import(url.href);
    const found = module[exportName];
    if (typeof found !== "function") return `scripts/${file} does not export ${exportName}()`;
    return found as T;
  } catch (error) {
    return `scripts/${file} failed to load: ${error instanceof Error ? error.message : error}`;
  }
}

/** Skipped-section result with the reason as its note. */
function skipped(reason: string): SectionResult {
  return { rows: [], notes: [], skipped: reason };
}

/** Policy decision cost, from `benchPolicy` of scripts/bench_policy.ts. */
export async function benchPolicySection(): Promise<SectionResult> {
  const benchPolicy = await importOptional<BenchPolicy>("bench_policy.ts", "benchPolicy");
  if (typeof benchPolicy === "string") return skipped(benchPolicy);
  const results = await benchPolicy();
  const rows = results.flatMap(({ name, p50Ms, p99Ms }) => {
    // The target is stated for 4 KB commands; other cases are reported for information.
    const targeted = /\b4\s*(k|kb|kib)\b/i.test(name);
    return [
      {
        figure: `policy p50: ${name}`,
        ours: p50Ms,
        baseline: null,
        unit: "ms",
        target: "—",
        met: null,
      },
      {
        figure: `policy p99: ${name}`,
        ours: p99Ms,
        baseline: null,
        unit: "ms",
        target: targeted ? `< ${POLICY_TARGET_MS} ms` : "—",
        met: targeted ? p99Ms < POLICY_TARGET_MS : null,
      },
    ];
  });
  return {
    rows,
    notes: [
      `Policy: figures from \`benchPolicy()\` of scripts/bench_policy.ts, in-process; the < ${POLICY_TARGET_MS} ms p99 target applies to the cases named for 4 KB commands.`,
    ],
  };
}

/** Streamable HTTP figures, from `benchHttp` of scripts/bench_http.ts. */
export async function benchHttpSection(): Promise<SectionResult> {
  const benchHttp = await importOptional<BenchHttp>("bench_http.ts", "benchHttp");
  if (typeof benchHttp === "string") return skipped(benchHttp);
  const results = await benchHttp();
  return {
    rows: results.map(({ figure, ours, baseline, unit }) => ({
      figure: `http: ${figure}`,
      ours,
      baseline,
      unit,
      target: "—",
      met: null,
    })),
    notes: ["HTTP: figures from `benchHttp()` of scripts/bench_http.ts, as it reports them."],
  };
}
