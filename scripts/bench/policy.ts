/**
 * Benchmark of the command-name policy: `BashParser.load()` time, and p50/p99 of
 * `checkCommandNames` for realistic ~100-byte and ~4 KB command lines.
 *
 *     deno run -P=test scripts/bench/policy.ts
 */
import { loadBashParser, loadCommandNames } from "../../src/policy/command_names/mod.ts";
import type { SectionResult } from "./table.ts";

/** The p99 target of a 4 KB check. */
const POLICY_TARGET_MS = 1;

/** One measured quantity. */
export interface BenchResult {
  name: string;
  p50Ms: number;
  p99Ms: number;
}

const LISTS = { blacklist: ["rm", "mkfs", "dd", "shutdown"], whitelist: [] };
const LOAD_RUNS = 11;
const WARMUP_CALLS = 200;
const MEASURED_CALLS = 2000;

/** Realistic single commands an agent sends, each around 100 bytes. */
const SHORT_COMMANDS = [
  "cd /work/project && git status --short && git diff --stat HEAD~1 -- src/ | tail -n 20",
  "FOO=1 npm test -- --reporter=dot 2>&1 | grep -E 'passing|failing' | head -n 5 || true",
  'find . -name "*.ts" -not -path "./node_modules/*" -exec grep -l "TODO" {} + | sort | uniq',
  'for f in src/*.ts; do echo "$f: $(wc -l < "$f")"; done | sort -t: -k2 -n | tail -3',
  "bash -c 'set -euo pipefail; make -j4 build && ./bin/app --version' 2>&1 | tee build.log",
  'if [ -f package.json ]; then jq -r ".scripts | keys[]" package.json; else echo none; fi',
];

/** Builds a ~4 KB script out of realistic lines (build, test, inspection, here-docs). */
function longCommand(seed: number): string {
  const lines = [
    "set -euo pipefail",
    'ROOT="$(git rev-parse --show-toplevel)"',
    'cd "$ROOT"',
    "export CI=true GIT_PAGER=cat",
    "git fetch --quiet origin main && git log --oneline origin/main..HEAD | head -n 20",
    'for dir in src tests scripts; do printf "%s %s\\n" "$dir" "$(find "$dir" -type f | wc -l)"; done',
    "deno fmt --check && deno lint && deno check main.ts src/ tests/",
    "deno test -P=test --no-prompt tests/policy/ 2>&1 | tail -n 40",
    'if ! grep -q "version" deno.json; then echo "missing version" >&2; exit 1; fi',
    "cat <<'EOF' > /tmp/notes.txt\nrelease notes\n- faster policy\n- fewer bugs\nEOF",
    "sed -n 's/^version: //p' config.yaml | head -n 1",
    "awk -F: '{ total += $2 } END { print total }' sizes.txt",
    'case "$(uname -s)" in Linux) echo linux ;; Darwin) echo mac ;; *) echo other ;; esac',
    'while read -r line; do echo "${line%%#*}"; done < .gitignore',
    "xargs -n 1 -P 4 curl -fsS -o /dev/null < urls.txt || echo 'some downloads failed'",
    "timeout 30 sudo -u build env LANG=C make -C build install DESTDIR=/tmp/stage",
    "docker compose ps --format json | jq -r '.[].Name' | sort",
    "ls -la \"$ROOT\"/dist 2>/dev/null | awk '{ print $5, $9 }' | sort -n | tail -n 5",
  ];
  let out = `# run ${seed}\n`;
  let i = seed;
  while (out.length < 4000) {
    out += `${lines[i % lines.length]}\n`;
    i += 7;
  }
  return out;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function measure(name: string, run: (i: number) => void, calls: number): BenchResult {
  for (let i = 0; i < WARMUP_CALLS; i++) run(i);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    run(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { name, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99) };
}

/** Runs the benchmark and returns its figures (milliseconds). */
export async function benchPolicy(): Promise<BenchResult[]> {
  const { checkCommandNames } = await loadCommandNames();
  const loads: number[] = [];
  for (let i = 0; i < LOAD_RUNS; i++) {
    const start = performance.now();
    const parser = await loadBashParser();
    loads.push(performance.now() - start);
    parser.close();
  }
  const later = loads.slice(1).sort((a, b) => a - b);
  const results: BenchResult[] = [
    // The first load also starts the shared wasm runtime; later ones only add the grammar.
    { name: "BashParser.load, first in the process", p50Ms: loads[0], p99Ms: loads[0] },
    {
      name: "BashParser.load, later",
      p50Ms: percentile(later, 0.5),
      p99Ms: percentile(later, 0.99),
    },
  ];
  using parser = await loadBashParser();
  const longCommands = Array.from({ length: 16 }, (_, i) => longCommand(i));
  results.push(
    measure("checkCommandNames ~100 B", (i) => {
      checkCommandNames(SHORT_COMMANDS[i % SHORT_COMMANDS.length], LISTS, parser);
    }, MEASURED_CALLS),
    measure("checkCommandNames ~4 KB", (i) => {
      checkCommandNames(longCommands[i % longCommands.length], LISTS, parser);
    }, MEASURED_CALLS),
  );
  return results;
}

/** The `policy` section of `deno task bench`; the target applies to 4 KB commands. */
export async function benchPolicySection(): Promise<SectionResult> {
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
      `Policy: figures from \`benchPolicy()\` of scripts/bench/policy.ts, in-process; the < ${POLICY_TARGET_MS} ms p99 target applies to the cases named for 4 KB commands.`,
    ],
  };
}

if (import.meta.main) {
  for (const { name, p50Ms, p99Ms } of await benchPolicy()) {
    console.log(`${name.padEnd(52)} p50 ${p50Ms.toFixed(3)} ms  p99 ${p99Ms.toFixed(3)} ms`);
  }
}
