/**
 * `deno task test:binary [--expect-version TAG] [BINARY]`
 *
 * Smoke-tests a compiled yieldshell binary (BINARY, else `YIELDSHELL_BIN`) the way a user's
 * client meets it: `--version`, `--help`, and a real MCP session over stdio (see
 * `scripts/smoke/run_smoke.ts`). Exits 0 only when every check ran and passed; with no usable
 * binary it says that nothing was run and exits 1, so a skip is never mistaken for a pass.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import denoJson from "../deno.json" with { type: "json" };
import { binaryProblem } from "./smoke/binary_problem.ts";
import { type CheckResult, DEFAULT_LEFTOVER_GRACE_MS, runSmoke } from "./smoke/run_smoke.ts";

const USAGE = `Usage: deno task test:binary [options] [BINARY]

Smoke-tests BINARY (default: $YIELDSHELL_BIN): --version, --help, and an MCP session over
stdio (initialize, tools/list, a command through the default shell, a background execution
stopped, shutdown on stdin EOF with no child left behind).

Options:
  --expect-version TAG   the version --version must print (v prefix allowed);
                         default: deno.json's version (${denoJson.version})
  --sums FILE --asset NAME
                         first check that BINARY is the asset NAME by its line in FILE
                         (a release's SHA256SUMS)
  --leftover-grace-ms MS how long stopped processes may take to vanish
                         (default ${DEFAULT_LEFTOVER_GRACE_MS})
  --help                 print this help

On macOS a Mach-O binary must also pass codesign --verify --strict.`;

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

const MARKS = { passed: "ok  ", failed: "FAIL", skipped: "SKIP" };

function printCheck(result: CheckResult): void {
  console.log(`${MARKS[result.outcome]} ${result.name}: ${result.detail}`);
}

async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        "expect-version": { type: "string" },
        "leftover-grace-ms": { type: "string" },
        sums: { type: "string" },
        asset: { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
    if (parsed.positionals.length > 1) throw new Error("Name one binary at most");
    const grace = parsed.values["leftover-grace-ms"];
    if ((parsed.values.sums === undefined) !== (parsed.values.asset === undefined)) {
      throw new Error("Pass --sums and --asset together: the asset's line in the sums file");
    }
    if (grace !== undefined && !/^\d+$/.test(grace)) {
      throw new Error(
        `--leftover-grace-ms must be a whole number of milliseconds: received ${grace}`,
      );
    }
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  const path = parsed.positionals[0] ?? Deno.env.get("YIELDSHELL_BIN");
  const binary = path ? resolve(path) : undefined;
  const problem = binaryProblem({
    path,
    info: binary === undefined ? null : await statOrNull(binary),
  });
  if (problem !== null) {
    console.error(`Cannot smoke-test the binary: ${problem}\nNothing was run: smoke failed`);
    return 1;
  }

  const version = (parsed.values["expect-version"] ?? denoJson.version).replace(/^v/, "");
  console.log(`Smoke-testing ${binary} (expecting yieldshell ${version})`);
  const grace = parsed.values["leftover-grace-ms"];
  const results = await runSmoke({
    binary: binary!,
    version,
    leftoverGraceMs: grace === undefined ? undefined : Number(grace),
    asset: parsed.values.asset === undefined
      ? undefined
      : { name: parsed.values.asset, sumsFile: parsed.values.sums! },
    onCheck: printCheck,
  });
  const count = (outcome: CheckResult["outcome"]) =>
    results.filter((result) => result.outcome === outcome).length;
  const [passed, failed, skipped] = [count("passed"), count("failed"), count("skipped")];
  console.log(`smoke: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  // A run that checked nothing proves nothing: it fails as loudly as a failed check.
  if (passed === 0) console.error("No check passed: smoke failed");
  return passed > 0 && passed === results.length ? 0 : 1;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
