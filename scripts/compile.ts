/**
 * `deno task compile [--net-host HOST]... [--expect-version TAG] [TARGET...]`
 *
 * Builds `dist/yieldshell-<target>[.exe]` for each target (all when none is named) with the
 * `server` permission set baked in, then writes `dist/SHA256SUMS`. Before compiling anything
 * it checks that the project files and, per target, the `denort` runtime are available, and
 * stops with one message when they are not.
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import denoJson from "../deno.json" with { type: "json" };
import {
  denortCachePath,
  denortUrl,
  ENTRY_POINT,
  formatSums,
  INCLUDES,
  type MissingRuntime,
  OUTPUT_DIR,
  outputName,
  parseTargets,
  planCompile,
  preflightMessage,
  SUMS_FILE,
  type Target,
  TARGETS,
  toHex,
  usesDenortBin,
  versionMismatch,
} from "./compile_plan.ts";

const PROBE_TIMEOUT_MS = 5_000;
const ROOT = new URL("..", import.meta.url);

const USAGE = `Usage: deno task compile [options] [target...]

Targets (default: all): ${TARGETS.join(", ")}

Options:
  --net-host HOST        also let the HTTP transport bind HOST (repeatable); the default
                         build allows loopback only: 127.0.0.1, localhost, [::1]
  --expect-version TAG   fail unless deno.json's version matches TAG (v prefix allowed)
  --help                 print this help

Environment:
  DENORT_BIN             an unzipped denort ${Deno.version.deno} for the host target
                         (${Deno.build.target}); used for that target only`;

function rootPath(relative: string): string {
  return fileURLToPath(new URL(relative, ROOT));
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function findDenoDir(): Promise<string | null> {
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!output.success) return null;
    const info = JSON.parse(new TextDecoder().decode(output.stdout));
    return typeof info.denoDir === "string" ? info.denoDir : null;
  } catch {
    return null;
  }
}

function shortCause(error: unknown): string {
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;
  }
  // fetch throws "fetch failed" and keeps the reason in `cause`, as
  // "error sending request for url (...): client error (Connect): dns error: ...".
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const message = cause instanceof Error ? cause.message : String(cause);
  const parts = message.split(": ").filter((part) =>
    !part.startsWith("error sending request") && !part.startsWith("client error")
  );
  return parts.length > 0 ? parts.join(": ") : message;
}

/** Null when `url` can be downloaded, else why not. */
async function probe(url: string): Promise<string | null> {
  try {
    // Manual redirects: a redirect already proves the file exists, and following it would
    // need network permission for a host this script is not granted.
    const response = await fetch(url, {
      method: "HEAD",
      redirect: "manual",
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status < 400) return null;
    return `HTTP ${response.status}`;
  } catch (error) {
    return shortCause(error);
  }
}

interface RuntimeCheck {
  missing: MissingRuntime[];
  denoDir: string | null;
  denortBinProblem: string | null;
}

async function checkRuntimes(
  targets: readonly Target[],
  denortBin?: string,
): Promise<RuntimeCheck> {
  const version = Deno.version.deno;
  const denoDir = await findDenoDir();
  let denortBinProblem: string | null = null;
  const causes = await Promise.all(targets.map(async (target) => {
    if (usesDenortBin(target, Deno.build.target, denortBin)) {
      if (!(await isFile(denortBin!))) {
        denortBinProblem = `DENORT_BIN=${denortBin} is not a file: point it at an unzipped ` +
          `denort ${version} for ${target}, or unset it`;
      }
      return null;
    }
    if (denoDir !== null && await isFile(denortCachePath(denoDir, target, version))) {
      return null;
    }
    return await probe(denortUrl(target, version));
  }));
  const missing = targets.flatMap((target, index) => {
    const cause = causes[index];
    return cause === null ? [] : [{ target, url: denortUrl(target, version), cause }];
  });
  return { missing, denoDir, denortBinProblem };
}

async function sha256(path: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", await Deno.readFile(path)));
}

async function removeStaleOutputs(): Promise<void> {
  // dist/ always holds exactly one build, so SHA256SUMS covers every binary next to it.
  for (const name of [...TARGETS.map(outputName), SUMS_FILE]) {
    await Deno.remove(rootPath(`${OUTPUT_DIR}/${name}`)).catch(() => {});
  }
}

async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        "net-host": { type: "string", multiple: true, default: [] },
        "expect-version": { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }

  const version = denoJson.version;
  const expected = parsed.values["expect-version"];
  let steps;
  try {
    const mismatch = expected === undefined ? null : versionMismatch(expected, version);
    if (mismatch !== null) throw new Error(mismatch);
    steps = planCompile({
      targets: parseTargets(parsed.positionals),
      netHosts: parsed.values["net-host"],
    });
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const targets = steps.map((step) => step.target);

  const denortBin = Deno.env.get("DENORT_BIN");
  const inputs = [ENTRY_POINT, ...INCLUDES];
  const [runtimes, inputPresence] = await Promise.all([
    checkRuntimes(targets, denortBin),
    Promise.all(inputs.map((path) => isFile(rootPath(path)))),
  ]);
  const message = preflightMessage({
    denoVersion: Deno.version.deno,
    hostTarget: Deno.build.target,
    denoDir: runtimes.denoDir,
    missingRuntimes: runtimes.missing,
    missingInputs: inputs.filter((_, index) => !inputPresence[index]),
    denortBinProblem: runtimes.denortBinProblem,
    targetCount: targets.length,
  });
  if (message !== null) {
    console.error(message);
    return 1;
  }

  console.log(
    `Compiling yieldshell ${version} with Deno ${Deno.version.deno} for ${targets.length} target(s)`,
  );
  await Deno.mkdir(rootPath(OUTPUT_DIR), { recursive: true });
  await removeStaleOutputs();
  const environment = Deno.env.toObject();
  const sums = [];
  for (const step of steps) {
    const env = { ...environment };
    if (!usesDenortBin(step.target, Deno.build.target, denortBin)) delete env.DENORT_BIN;
    console.log(`\n$ deno ${step.argv.join(" ")}`);
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: step.argv,
      cwd: rootPath("."),
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (code !== 0) {
      console.error(`Cannot compile for ${step.target}: deno compile exited with code ${code}`);
      return code;
    }
    sums.push({ name: outputName(step.target), sha256: await sha256(rootPath(step.output)) });
  }
  const text = formatSums(sums);
  await Deno.writeTextFile(rootPath(`${OUTPUT_DIR}/${SUMS_FILE}`), text);
  console.log(`\nWrote ${OUTPUT_DIR}/${SUMS_FILE}:\n${text}`);
  return 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
