/**
 * `deno task test:binary [--require]`
 *
 * Runs the end-to-end tests (`tests/e2e/`) against a compiled binary named by
 * `YIELDSHELL_BIN` and exits with their exit code. Without a usable binary it says why and
 * skips with exit code 0, or fails with 1 under `--require` (the release workflow), so a
 * skip is never mistaken for a pass.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const E2E_DIR = "tests/e2e/";
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What is known about the file `YIELDSHELL_BIN` names. */
export interface BinaryFacts {
  /** The variable's value; undefined when unset. */
  path: string | undefined;
  /** `Deno.stat` of it, or null when it does not exist. */
  info: Pick<Deno.FileInfo, "isFile" | "mode"> | null;
}

/** Why the binary cannot be tested, or null when it can. */
export function binaryProblem({ path, info }: BinaryFacts): string | null {
  if (path === undefined || path === "") {
    return "YIELDSHELL_BIN is not set; set it to a compiled binary, e.g. " +
      "YIELDSHELL_BIN=dist/yieldshell-x86_64-unknown-linux-gnu after `deno task compile`";
  }
  if (info === null) return `YIELDSHELL_BIN=${path} does not exist`;
  if (!info.isFile) return `YIELDSHELL_BIN=${path} is not a file`;
  // Windows reports no mode; there an existing file is as executable as it gets.
  if (info.mode !== null && (info.mode & 0o111) === 0) {
    return `YIELDSHELL_BIN=${path} is not executable; run chmod +x ${path}`;
  }
  return null;
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

async function main(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: { require: { type: "boolean", default: false } },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\nUsage: deno task test:binary [--require]`);
    return 2;
  }
  const path = Deno.env.get("YIELDSHELL_BIN");
  const absolute = path ? resolve(path) : undefined;
  const problem = binaryProblem({
    path,
    info: absolute === undefined ? null : await statOrNull(absolute),
  });
  if (problem !== null) {
    if (values.require) {
      console.error(`Cannot test the binary: ${problem}`);
      return 1;
    }
    console.error(`Skipped the binary end-to-end tests (nothing was run): ${problem}`);
    return 0;
  }

  console.error(`Testing ${absolute} with ${E2E_DIR}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["test", "-P=test", E2E_DIR],
    cwd: ROOT,
    // Absolute, so the tests find the binary whatever directory they start it from.
    env: { YIELDSHELL_BIN: absolute! },
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return code;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
