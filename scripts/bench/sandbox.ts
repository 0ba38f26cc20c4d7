import { probeBubblewrap } from "../../src/platform/bwrap_probe.ts";
import { type Session, startServer } from "../../tests/e2e/harness.ts";
import { callOk } from "./session.ts";
import { median, percentile } from "./stats.ts";
import type { Row, SectionResult } from "./table.ts";

const ROUNDS = 100;
const WARMUP_ROUNDS = 5;
const TARGET_OVERHEAD_MS = 5;
const COMMAND = "echo hello";

/** One way to run `echo hello`: which server, and what the call declares. */
interface Variant {
  label: string;
  server: "plain" | "pinned" | "sandboxed";
  sideEffects: string[];
}

/** The unsandboxed baseline first, then the cwd pin alone, then one variant per profile. */
const VARIANTS: Variant[] = [
  { label: "unsandboxed", server: "plain", sideEffects: ["NONE"] },
  { label: "cwd pin only (allowed_cwds set)", server: "pinned", sideEffects: ["NONE"] },
  { label: "read-only, no network", server: "sandboxed", sideEffects: ["NONE"] },
  { label: "read-only, network", server: "sandboxed", sideEffects: ["MAKES_NETWORK_REQUESTS"] },
  {
    label: "workspace-writable, no network",
    server: "sandboxed",
    sideEffects: ["MODIFIES_WORKSPACE_FILES"],
  },
  {
    label: "workspace-writable, network",
    server: "sandboxed",
    sideEffects: ["CHANGES_PACKAGES_OR_DEPENDENCIES"],
  },
];

/** One `execute` of `echo hello`, measured at the client; checks the profile it ran under. */
async function roundTrip(session: Session, variant: Variant): Promise<number> {
  const started = performance.now();
  const payload = await callOk(session, "execute", {
    command: COMMAND,
    side_effects: variant.sideEffects,
  });
  const elapsed = performance.now() - started;
  const expected = variant.server === "sandboxed" ? variant.label : undefined;
  if (payload.stdout !== "hello\n" || payload.sandbox !== expected) {
    throw new Error(`${variant.label}: execute answered ${JSON.stringify(payload)}`);
  }
  return elapsed;
}

/**
 * The per-execution cost of each sandbox profile against the unsandboxed round trip in the same
 * run: `execute` of `echo hello` through the real server path (MCP client, stdio, admission,
 * spawn, sandbox, output, result), on three servers at once (default; `--allowed-cwd`, which adds
 * the cwd pin; `--sandbox declared`), interleaved round by round.
 */
export async function benchSandbox(): Promise<SectionResult> {
  const probe = await probeBubblewrap();
  if (!probe.ok) return { rows: [], notes: [], skipped: probe.error };
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "ys-bench-sandbox-" }));
  const rooted = ["--allowed-cwd", workspace, "--default-cwd", workspace];
  try {
    await using plain = await startServer({ args: ["--default-cwd", workspace] });
    await using pinned = await startServer({ args: rooted });
    await using sandboxed = await startServer({ args: ["--sandbox", "declared", ...rooted] });
    const servers = { plain, pinned, sandboxed };
    const samples = VARIANTS.map((): number[] => []);
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      // Rotate the order so no variant always follows the same one.
      for (let step = 0; step < VARIANTS.length; step++) {
        const index = (round + step) % VARIANTS.length;
        const variant = VARIANTS[index];
        const elapsed = await roundTrip(servers[variant.server], variant);
        if (round >= WARMUP_ROUNDS) samples[index].push(elapsed);
      }
    }
    return { rows: rowsOf(samples), notes: notesOf(samples, probe.host.bwrapPath) };
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}

function rowsOf(samples: number[][]): Row[] {
  const plain = median(samples[0]);
  const rows: Row[] = VARIANTS.slice(1).map((variant, offset) => {
    const ours = median(samples[offset + 1]);
    return {
      figure: `execute round trip p50, ${variant.label}`,
      ours,
      baseline: plain,
      unit: "ms",
      target: `≤ +${TARGET_OVERHEAD_MS} ms`,
      met: ours - plain <= TARGET_OVERHEAD_MS,
    };
  });
  rows.push({
    figure: "execute round trip p95, read-only, no network",
    ours: percentile(samples[2], 0.95),
    baseline: percentile(samples[0], 0.95),
    unit: "ms",
    target: "—",
    met: null,
  });
  return rows;
}

function notesOf(samples: number[][], bwrapPath: string): string[] {
  const plain = median(samples[0]);
  const added = VARIANTS.slice(1).map((variant, offset) =>
    `${variant.label} +${(median(samples[offset + 1]) - plain).toFixed(2)} ms`
  );
  const fastest = VARIANTS.map((variant, index) =>
    `${variant.label} ${Math.min(...samples[index]).toFixed(2)} ms`
  );
  return [
    `Sandbox: ${ROUNDS} rounds (after ${WARMUP_ROUNDS} warm-ups) of ${VARIANTS.length} \`execute\` calls of \`${COMMAND}\` each, order rotated per round, measured at an SDK client over stdio. Baseline: the same call on a server with the default configuration. The others: a server with \`--allowed-cwd\` (the cwd pin, one more shell exec) and one with \`--sandbox declared\` (${bwrapPath}: the launcher, bubblewrap's namespaces and mounts, the sandbox init), each call declaring the side effects of its profile. The target is the issue's: under ${TARGET_OVERHEAD_MS} ms added per execution.`,
    `Sandbox, median added per execution: ${added.join("; ")}.`,
    `Sandbox, fastest samples (the least disturbed by other load): ${fastest.join("; ")}.`,
  ];
}
