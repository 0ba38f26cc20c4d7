/**
 * What `scripts/compile.ts` does, decided without touching the system: targets, output
 * names, the `deno compile` argv per target, where `denort` comes from, and the sums file.
 */
import { join } from "node:path";

/** Targets `deno compile` builds for, in release order. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/** One of {@linkcode TARGETS}. */
export type Target = typeof TARGETS[number];

/** Entry point, relative to the project root. */
export const ENTRY_POINT = "main.ts";
/** Output directory, relative to the project root. */
export const OUTPUT_DIR = "dist";
/** Name of the sums file inside {@linkcode OUTPUT_DIR}, in `sha256sum` format. */
export const SUMS_FILE = "SHA256SUMS";
/**
 * Permission set of `deno.json` baked into the Linux and macOS binaries: `tty` (the `server`
 * set plus `ffi`), because a compiled binary cannot be granted more at run time and terminal
 * mode needs libc by FFI; `--no-tty` builds them with `server`. Windows binaries always get
 * `server` (terminal mode is not there yet).
 */
export const PERMISSION_SET = "tty";
/** The set without `ffi`: Windows binaries and `--no-tty` builds. */
export const NO_TTY_PERMISSION_SET = "server";
/**
 * Hosts the HTTP transport may bind in a default build: loopback only, any port. Deno checks
 * the bind address against `--allow-net`, and a compiled binary cannot be granted more at run
 * time, so binding another address needs a rebuild with `--net-host`.
 */
export const LOOPBACK_HOSTS: readonly string[] = ["127.0.0.1", "localhost", "[::1]"];
/**
 * Files the binary reads at run time that no import reaches: the bash grammar and the
 * tree-sitter runtime, both loaded as wasm by web-tree-sitter, the regex worker (deno
 * compile includes a worker's module only when named), and the modules loaded on first use
 * through a named specifier (scripts/lazy_imports.ts), which deno compile cannot see either.
 */
export const INCLUDES: readonly string[] = [
  "node_modules/tree-sitter-bash/tree-sitter-bash.wasm",
  "node_modules/web-tree-sitter/tree-sitter.wasm",
  "src/core/regex_worker_entry.ts",
  "src/policy/command_names/bash_parser.ts",
  "src/policy/command_names/check_command_names.ts",
  "src/policy/command_names/check_shell.ts",
  "src/policy/command_names/extract_command_names.ts",
  "src/terminal/terminal_screen.ts",
  "src/transports/http.ts",
];

/** One `deno compile` invocation. */
export interface CompileStep {
  target: Target;
  /** Output path relative to the project root, e.g. `dist/yieldshell-x86_64-apple-darwin`. */
  output: string;
  /** Arguments to the `deno` executable, starting with `compile`. */
  argv: string[];
}

/** Options of {@linkcode planCompile}. */
export interface PlanOptions {
  /** Targets to build, already validated by {@linkcode parseTargets}. */
  targets: readonly Target[];
  /** Extra hosts the HTTP transport may bind, added to the loopback ones. @default {[]} */
  netHosts?: readonly string[];
  /** Bake in `ffi` for terminal mode (Linux and macOS). @default {true} */
  tty?: boolean;
}

function isTarget(name: string): name is Target {
  return (TARGETS as readonly string[]).includes(name);
}

/** Validates target names; no names means every target. Throws on an unknown name. */
export function parseTargets(names: readonly string[]): Target[] {
  if (names.length === 0) return [...TARGETS];
  const targets: Target[] = [];
  for (const name of names) {
    if (!isTarget(name)) {
      throw new Error(
        `Cannot compile for unknown target "${name}": valid targets are ${TARGETS.join(", ")}`,
      );
    }
    if (!targets.includes(name)) targets.push(name);
  }
  return targets;
}

/** File name of the binary for `target`; only Windows gets `.exe`. */
export function outputName(target: Target): string {
  return `yieldshell-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** The `--allow-net` host list: loopback first, then `extra`. Throws on a malformed host. */
export function netHostList(extra: readonly string[] = []): string[] {
  const hosts = [...LOOPBACK_HOSTS];
  for (const host of extra) {
    // An empty entry would turn `--allow-net=` into a grant for every host.
    if (host === "" || /[\s,=]/.test(host)) {
      throw new Error(
        `Cannot grant network access to host "${host}": pass one host per --net-host, ` +
          `e.g. --net-host=0.0.0.0 or --net-host=192.168.1.5:8000`,
      );
    }
    if (!hosts.includes(host)) hosts.push(host);
  }
  return hosts;
}

/** The `deno compile` calls that build `targets`, one per target. */
export function planCompile(options: PlanOptions): CompileStep[] {
  const { targets, netHosts = [], tty = true } = options;
  const allowNet = `--allow-net=${netHostList(netHosts).join(",")}`;
  return targets.map((target) => {
    const output = `${OUTPUT_DIR}/${outputName(target)}`;
    return {
      target,
      output,
      argv: [
        "compile",
        // A release must build from the committed lockfile, not from whatever resolves today.
        "--frozen",
        // A prompt would read the terminal; a missing grant must fail, not ask.
        "--no-prompt",
        `--permission-set=${
          tty && !target.includes("windows") ? PERMISSION_SET : NO_TTY_PERMISSION_SET
        }`,
        allowNet,
        ...INCLUDES.flatMap((path) => ["--include", path]),
        "--target",
        target,
        "--output",
        output,
        ENTRY_POINT,
      ],
    };
  });
}

/** Where `deno compile` downloads the runtime for `target` from. */
export function denortUrl(target: Target, denoVersion: string): string {
  return `https://dl.deno.land/release/v${denoVersion}/denort-${target}.zip`;
}

/** Where `deno compile` caches that download, and reuses it offline. */
export function denortCachePath(denoDir: string, target: Target, denoVersion: string): string {
  return join(denoDir, "dl", "release", `v${denoVersion}`, `denort-${target}.zip`);
}

/**
 * Whether `deno compile` may run with `DENORT_BIN` for `target`. Deno embeds whatever file
 * `DENORT_BIN` names for every target, so it is only right for the machine it was built for.
 */
export function usesDenortBin(target: Target, hostTarget: string, denortBin?: string): boolean {
  return denortBin !== undefined && denortBin !== "" && target === hostTarget;
}

/** A target whose runtime is neither cached nor downloadable. */
export interface MissingRuntime {
  target: Target;
  /** The download tried, from {@linkcode denortUrl}. */
  url: string;
  /** Why it failed, e.g. `HTTP 404` or `dns error: ...`. */
  cause: string;
}

/** Facts the preflight message is built from. */
export interface PreflightReport {
  denoVersion: string;
  hostTarget: string;
  /** `DENO_DIR`, or null when it could not be determined. */
  denoDir: string | null;
  missingRuntimes: readonly MissingRuntime[];
  /** Project files the build needs that do not exist. */
  missingInputs: readonly string[];
  /** Problems with `DENORT_BIN` itself, e.g. not a file. */
  denortBinProblem: string | null;
  /** Number of targets requested. */
  targetCount: number;
}

/** The one message that stops a build before it starts, or null when nothing is missing. */
export function preflightMessage(report: PreflightReport): string | null {
  const { denoVersion, hostTarget, denoDir, missingRuntimes, missingInputs } = report;
  if (missingRuntimes.length === 0 && missingInputs.length === 0 && !report.denortBinProblem) {
    return null;
  }
  const lines: string[] = [];
  if (missingInputs.length > 0) {
    lines.push(`Cannot compile as project files are missing: ${missingInputs.join(", ")}`);
    if (missingInputs.some((path) => path.startsWith("node_modules/"))) {
      lines.push("  run `deno install` to populate node_modules");
    }
  }
  if (report.denortBinProblem) {
    lines.push(`Cannot compile as ${report.denortBinProblem}`);
  }
  if (missingRuntimes.length > 0) {
    const cacheDir = denoDir === null
      ? `<DENO_DIR>/dl/release/v${denoVersion}/`
      : join(denoDir, "dl", "release", `v${denoVersion}`) + "/";
    const causes = new Set(missingRuntimes.map(({ cause }) => cause));
    const shared = causes.size === 1 ? ` (${[...causes][0]})` : "";
    lines.push(
      `Cannot compile as denort ${denoVersion}, the runtime deno compile embeds, is neither ` +
        `cached nor downloadable for ${missingRuntimes.length} of ${report.targetCount} ` +
        `targets${shared}:`,
      ...missingRuntimes.map(({ target, url, cause }) =>
        `  ${target}: ${url}${shared ? "" : ` (${cause})`}`
      ),
      "Provide it in one of these ways:",
      "  - build where https://dl.deno.land is reachable (the release workflow builds on " +
        "GitHub's ubuntu-latest runner)",
      `  - download the zips above elsewhere and copy them, unchanged, into ${cacheDir} ` +
        "(deno compile then works offline, for any target)",
      `  - set DENORT_BIN to an unzipped denort ${denoVersion} for ${hostTarget} and build ` +
        `that target only (\`deno task compile ${hostTarget}\`): deno compile embeds that ` +
        "file whatever the target, so it is used for the host target alone",
    );
  }
  lines.push("Nothing was compiled");
  return lines.join("\n");
}

/** Checks a release tag (`v1.2.3` or `1.2.3`) against the version in `deno.json`. */
export function versionMismatch(expected: string, actual: string): string | null {
  const wanted = expected.startsWith("v") ? expected.slice(1) : expected;
  if (wanted === actual) return null;
  return `Cannot compile release ${expected} as deno.json says version ${actual}: ` +
    `set "version" in deno.json to "${wanted}" or tag v${actual}`;
}

/** One line of the sums file. */
export interface SumEntry {
  /** File name inside the output directory. */
  name: string;
  /** Lowercase hex SHA-256. */
  sha256: string;
}

/** `sha256sum` text format, sorted by name, so `sha256sum -c SHA256SUMS` checks it. */
export function formatSums(entries: readonly SumEntry[]): string {
  return [...entries]
    .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    .map(({ name, sha256 }) => `${sha256}  ${name}\n`)
    .join("");
}

/** Lowercase hex of a digest. */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether `target` is a macOS target, whose binaries macOS runs only when signed. */
export function isDarwinTarget(target: Target): boolean {
  return target.endsWith("-apple-darwin");
}

/**
 * Entitlements of a Developer ID signature: the hardened runtime that notarization requires
 * forbids the writable, executable memory V8 compiles JavaScript and wasm into.
 */
export const ENTITLEMENTS_FILE = "scripts/compile_entitlements.plist";

/** The two `codesign` calls for one binary: sign it, then verify the signature. */
export interface CodesignStep {
  output: string;
  /** Arguments to `codesign` that sign `output`. */
  sign: string[];
  /** Arguments to `codesign` that verify it strictly. */
  verify: string[];
}

/**
 * How to sign `outputs`: ad hoc (`-`, what Apple Silicon needs to run a binary at all) unless
 * a Developer ID `identity` is given, which adds the hardened runtime, the entitlements and a
 * secure timestamp, as notarization requires.
 */
export function planCodesign(outputs: readonly string[], identity?: string): CodesignStep[] {
  const developerId = identity !== undefined && identity !== "" && identity !== "-";
  const how = developerId
    ? [
      "--sign",
      identity!,
      "--options",
      "runtime",
      "--entitlements",
      ENTITLEMENTS_FILE,
      "--timestamp",
    ]
    : ["--sign", "-"];
  return outputs.map((output) => ({
    output,
    sign: ["--force", ...how, output],
    verify: ["--verify", "--strict", "--verbose=2", output],
  }));
}
