/**
 * The import-layer check of `deno task ok`: dependencies point one way, the
 * core knows nothing of MCP, zod, HTTP or the OS, and process-edge APIs stay
 * at the edge. Prints every violation and exits 1 if there is any.
 *
 *     deno run -P=test scripts/check_layers.ts [--root DIR]
 *
 * `--root` checks another checkout (the tests check copies with a rule broken on purpose).
 */
import { dirname, join, relative as nativeRelative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { lazyImportsOf } from "./lazy_imports.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: { root: { type: "string" } },
  strict: true,
});
const root = flags.root === undefined
  ? resolve(dirname(fileURLToPath(import.meta.url)), "..")
  : resolve(flags.root);

/** A relative path with forward slashes on every OS, as the rules are written. */
function relative(from: string, to: string): string {
  return nativeRelative(from, to).replaceAll("\\", "/");
}

/**
 * Which local layers and packages each layer may import. The core declares its ports
 * (`core/process.ts`, ...) and imports only itself and the contract; adapters import the
 * ports they implement; transports know neither the core nor the config.
 */
const RULES: Record<string, { layers: string[]; packages: string[] }> = {
  contract: { layers: ["contract"], packages: [] },
  core: { layers: ["core", "contract", "terminal"], packages: [] },
  policy: { layers: ["policy", "contract"], packages: ["web-tree-sitter", "tree-sitter-bash"] },
  platform: {
    layers: [
      "platform",
      "contract",
      "core/process.ts",
      "core/terminal_port.ts",
      "core/timing.ts",
      "core/timer.ts",
    ],
    packages: [],
  },
  terminal: { layers: ["terminal", "contract"], packages: ["@xterm/headless"] },
  config: { layers: ["config", "policy", "contract"], packages: ["zod", "yaml", "node:util"] },
  protocol: { layers: ["protocol"], packages: [] },
  mcp: {
    layers: ["mcp", "protocol", "core", "policy", "contract"],
    packages: ["zod"],
  },
  transports: {
    layers: ["transports", "protocol", "policy", "contract", "logger.ts"],
    packages: ["@modelcontextprotocol/sdk", "node:"],
  },
  "app.ts": { layers: ["*"], packages: [] },
  "logger.ts": { layers: [], packages: [] },
};

/** Text that may appear only in the named files (paths relative to the repo root). */
const CONFINED: { pattern: RegExp; what: string; allowed: string[] }[] = [
  { pattern: /Deno\.build\.os/, what: "Deno.build.os", allowed: ["src/platform/mod.ts"] },
  { pattern: /\bconsole\./, what: "console", allowed: ["src/logger.ts"] },
  { pattern: /Deno\.(args|env|exit)\b/, what: "Deno.args/env/exit", allowed: ["main.ts"] },
  { pattern: /^export default/m, what: "a default export", allowed: [] },
];

/** Layers that must not touch Deno APIs at all (the OS lives in platform/). */
const NO_DENO = ["contract", "core", "mcp", "protocol", "terminal"];

function walk(dir: string): string[] {
  const files: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...walk(path));
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files;
}

function layerOf(file: string): string {
  const rel = relative(join(root, "src"), file);
  return rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : rel;
}

function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  // Only the binding list may stand between the keyword and `from` (names, braces, commas, `*`),
  // so a string such as "close-from" inside an exported table is not taken for an import.
  const pattern =
    /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?[\w$*{}\s,]*?\s*from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s*["']([^"']+)["']/g;
  for (const match of source.matchAll(pattern)) {
    specifiers.push(match[1] ?? match[2] ?? match[3]);
  }
  // A module imported on first use through a named specifier is an edge like any other.
  return [...specifiers, ...lazyImportsOf(source)];
}

const problems: string[] = [];
const srcFiles = walk(join(root, "src"));
const graph = new Map<string, string[]>();

for (const file of [...srcFiles, join(root, "main.ts")]) {
  const source = Deno.readTextFileSync(file);
  const rel = relative(root, file);
  for (const rule of CONFINED) {
    if (rule.pattern.test(source) && !rule.allowed.includes(rel)) {
      problems.push(
        `${rel}: uses ${rule.what}, allowed only in ${rule.allowed.join(", ") || "no file"}`,
      );
    }
  }
  if (rel === "main.ts") continue;
  const layer = layerOf(file);
  const rule = RULES[layer];
  if (rule === undefined) {
    problems.push(`${rel}: layer '${layer}' has no rule in scripts/check_layers.ts`);
    continue;
  }
  if (NO_DENO.includes(layer) && /\bDeno\.(?!test)/.test(source)) {
    problems.push(`${rel}: the ${layer} layer must not use Deno APIs; inject them from app.ts`);
  }
  const edges: string[] = [];
  for (const specifier of importsOf(source)) {
    if (specifier.startsWith(".")) {
      const target = resolve(dirname(file), specifier);
      edges.push(target);
      const targetRel = relative(join(root, "src"), target);
      if (targetRel.startsWith("..")) {
        if (!target.endsWith("deno.json")) {
          problems.push(`${rel}: imports ${specifier} outside src/`);
        }
        continue;
      }
      const allowed = rule.layers.includes("*") ||
        rule.layers.some((l) => targetRel === l || targetRel.startsWith(`${l}/`));
      if (!allowed) problems.push(`${rel}: ${layer} may not import ${targetRel}`);
    } else if (!rule.packages.some((p) => specifier === p || specifier.startsWith(p))) {
      if (!rule.layers.includes("*")) problems.push(`${rel}: ${layer} may not import ${specifier}`);
    }
  }
  graph.set(file, edges);
}

// No import cycles among src/ files.
const state = new Map<string, "visiting" | "done">();
function visit(file: string, path: string[]): void {
  if (state.get(file) === "done") return;
  if (state.get(file) === "visiting") {
    const cycle = path.slice(path.indexOf(file)).map((f) => relative(root, f));
    problems.push(`import cycle: ${[...cycle, relative(root, file)].join(" -> ")}`);
    return;
  }
  state.set(file, "visiting");
  for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
  state.set(file, "done");
}
for (const file of graph.keys()) visit(file, []);

if (problems.length > 0) {
  for (const problem of problems) console.error(`layer check: ${problem}`);
  Deno.exit(1);
}
console.log(`layer check: ${srcFiles.length} files in src/ follow the import rules`);
