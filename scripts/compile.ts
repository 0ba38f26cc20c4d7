/**
 * `deno task compile [--net-host HOST]... [--expect-version TAG] [--codesign] [TARGET...]`
 * `deno task compile --sums-only [TARGET...]`
 *
 * Builds `dist/yieldshell-<target>[.exe]` for each target (all when none is named) with the
 * `tty` permission set baked in (`server` plus `ffi`; Windows and `--no-tty`: `server`), then writes `dist/SHA256SUMS`. Before compiling anything
 * it checks that the project files and, per target, the `denort` runtime are available, and
 * stops with one message when they are not. `--codesign` (macOS only) signs and verifies the
 * macOS binaries; `--sums-only` compiles nothing and writes the sums of binaries already built
 * (the release assembles them from several runners).
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
  isDarwinTarget,
  type MissingRuntime,
  OUTPUT_DIR,
  outputName,
  parseTargets,
  planCodesign,
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
  --no-tty               build without ffi: tty: true calls then fail with what to do
                         (Windows binaries never get ffi)
  --codesign             sign each macOS binary with codesign and verify it (macOS only):
                         ad hoc, or with APPLE_SIGNING_IDENTITY when that is set
  --sums-only            compile nothing; write ${OUTPUT_DIR}/${SUMS_FILE} for the targets'
                         binaries already in ${OUTPUT_DIR}/ (each must exist)
  --help                 print this help

Environment:
  DENORT_BIN             an unzipped denort ${Deno.version.deno} for the host target
                         (${Deno.build.target}); used for that target only
  APPLE_SIGNING_IDENTITY a Developer ID Application identity in the keychain, for
                         --codesign with the hardened runtime (unset: ad hoc)`;

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

async function writeSums(targets: readonly Target[]): Promise<void> {
  const sums = [];
  for (const target of targets) {
    const name = outputName(target);
    sums.push({ name, sha256: await sha256(rootPath(`${OUTPUT_DIR}/${name}`)) });
  }
  const text = formatSums(sums);
  await Deno.writeTextFile(rootPath(`${OUTPUT_DIR}/${SUMS_FILE}`), text);
  console.log(`\nWrote ${OUTPUT_DIR}/${SUMS_FILE}:\n${text}`);
}

/** `--sums-only`: the sums of binaries built elsewhere, refusing when one is missing. */
async function sumsOnly(targets: readonly Target[]): Promise<number> {
  const missing = [];
  for (const target of targets) {
    if (!(await isFile(rootPath(`${OUTPUT_DIR}/${outputName(target)}`)))) {
      missing.push(`${OUTPUT_DIR}/${outputName(target)}`);
    }
  }
  if (missing.length > 0) {
    console.error(
      `Cannot write ${OUTPUT_DIR}/${SUMS_FILE} as ${missing.join(", ")} ` +
        `${missing.length === 1 ? "is" : "are"} missing: build ${
          missing.length === 1 ? "it" : "them"
        } first, or name only the targets you built`,
    );
    return 1;
  }
  await writeSums(targets);
  return 0;
}

/** Signs and verifies `output` with codesign; the exit code of the first call that fails. */
async function codesign(output: string, identity?: string): Promise<number> {
  const [step] = planCodesign([output], identity);
  for (const args of [step.sign, step.verify]) {
    console.log(`$ codesign ${args.join(" ")}`);
    const { code } = await new Deno.Command("codesign", {
      args,
      cwd: rootPath("."),
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (code !== 0) {
      console.error(`Cannot sign ${output}: codesign ${args[0]} exited with code ${code}`);
      return code;
    }
  }
  return 0;
}

/** Why `--codesign`/`--sums-only` cannot be honoured for `targets`, or null. */
function modeProblem(targets: readonly Target[], sign: boolean, sumsOnlyMode: boolean) {
  if (sign && sumsOnlyMode) {
    return "Cannot combine --codesign with --sums-only: sign while compiling, then write the sums";
  }
  if (sign && Deno.build.os !== "darwin") {
    return `Cannot codesign on ${Deno.build.os}: codesign exists only on macOS; build the ` +
      "apple-darwin targets on a macOS runner, or drop --codesign";
  }
  if (sign && !targets.some(isDarwinTarget)) {
    return "Cannot codesign: --codesign signs the apple-darwin targets and none was named";
  }
  return null;
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
        codesign: { type: "boolean", default: false },
        "no-tty": { type: "boolean", default: false },
        "sums-only": { type: "boolean", default: false },
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
      tty: !parsed.values["no-tty"],
    });
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const targets = steps.map((step) => step.target);
  const sign = parsed.values.codesign;
  const problem = modeProblem(targets, sign, parsed.values["sums-only"]);
  if (problem !== null) {
    console.error(problem);
    return 2;
  }
  if (parsed.values["sums-only"]) return await sumsOnly(targets);

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
  const identity = Deno.env.get("APPLE_SIGNING_IDENTITY");
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
    if (sign && isDarwinTarget(step.target)) {
      const signed = await codesign(step.output, identity);
      if (signed !== 0) return signed;
    }
  }
  await writeSums(targets);
  return 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
