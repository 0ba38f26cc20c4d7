/**
 * The smoke test of a yieldshell binary: `--version`, `--help`, and a real MCP session over
 * stdio (initialize, tools/list, a command through the default shell, a background execution
 * stopped with its process tree, shutdown on stdin EOF with no child left behind).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ChildTransport } from "./child_transport.ts";
import { checkAsset, checkSignature, type ExpectedAsset, isMachO } from "./file_checks.ts";
import { descendants, killAll, readProcessTable, stillAlive } from "./process_table.ts";
import { smokeCommands } from "./smoke_commands.ts";

/** The tools every yieldshell serves. */
export const TOOL_NAMES = [
  "cleanup",
  "execute",
  "ps",
  "read",
  "search",
  "stop",
  "wait",
  "write",
];

const REQUEST_TIMEOUT_MS = 60_000;
/** Bound for a process tree to appear or vanish, and for `--version`/`--help` to answer. */
const PROCESS_DEADLINE_MS = 30_000;
/** The server's shutdown takes TERM, up to 10 s of grace, KILL and a 3 s drain. */
const EXIT_DEADLINE_MS = 60_000;
const POLL_MS = 50;
/** How long processes may take to vanish once the server says they are gone. */
export const DEFAULT_LEFTOVER_GRACE_MS = 10_000;

/** Options of {@linkcode runSmoke}. */
export interface SmokeOptions {
  /** Path of the binary (or a stand-in that takes the same arguments). */
  binary: string;
  /** The version `--version` and `initialize` must report, without a `v`. */
  version: string;
  /** The release asset the binary must be (by SHA256SUMS); unchecked when absent. */
  asset?: ExpectedAsset;
  /** Whether to require a valid code signature. @default {true for a Mach-O file on macOS} */
  signed?: boolean;
  /**
   * How long a stopped tree may take to vanish after `wait` said it exited, or after the
   * server exited. @default {DEFAULT_LEFTOVER_GRACE_MS}
   */
  leftoverGraceMs?: number;
  /** Called as each check ends. */
  onCheck?: (result: CheckResult) => void;
}

/** The outcome of one check; `skipped` means an earlier check failed, so it did not run. */
export interface CheckResult {
  name: string;
  outcome: "passed" | "failed" | "skipped";
  /** What was seen (passed) or what went wrong (failed). */
  detail: string;
}

interface Check {
  name: string;
  run: () => Promise<string>;
}

interface Payload {
  // deno-lint-ignore no-explicit-any
  [key: string]: any;
}

function fail(message: string): never {
  throw new Error(message);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until<T>(
  probe: () => Promise<T | null>,
  what: string,
  ms = PROCESS_DEADLINE_MS,
): Promise<T> {
  const deadline = performance.now() + ms;
  while (true) {
    const value = await probe();
    if (value !== null) return value;
    if (performance.now() > deadline) fail(`${what} within ${ms / 1000} s`);
    await delay(POLL_MS);
  }
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs the binary with `args` and no stdin; kills it if it does not answer in time. */
async function runOnce(binary: string, args: string[]): Promise<Deno.CommandOutput> {
  const child = new Deno.Command(binary, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    return await within(child.output(), PROCESS_DEADLINE_MS, `${binary} ${args[0]} did not exit`);
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
    await child.status;
    throw error;
  }
}

function describeOutput(output: Deno.CommandOutput): string {
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return `exit code ${output.code}; stdout: ${JSON.stringify(text(output.stdout).slice(0, 200))}` +
    `; stderr: ${JSON.stringify(text(output.stderr).slice(0, 400))}`;
}

/** Runs every check in order; after a failure the remaining checks are reported as skipped. */
export async function runSmoke(options: SmokeOptions): Promise<CheckResult[]> {
  const signed = options.signed ?? (Deno.build.os === "darwin" && await isMachO(options.binary));
  const session = new SmokeSession({ ...options, signed });
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    options.onCheck?.(result);
  };
  try {
    for (const check of session.checks()) {
      if (results.some((result) => result.outcome !== "passed")) {
        report({ name: check.name, outcome: "skipped", detail: "an earlier check failed" });
        continue;
      }
      try {
        report({ name: check.name, outcome: "passed", detail: await check.run() });
      } catch (error) {
        report({ name: check.name, outcome: "failed", detail: (error as Error).message });
      }
    }
  } finally {
    await session.dispose();
  }
  return results;
}

/** One server, its client, and every process tree the checks started. */
class SmokeSession {
  #binary: string;
  #version: string;
  #leftoverGraceMs: number;
  #asset?: ExpectedAsset;
  #signed: boolean;
  #commands = smokeCommands(Deno.build.os);
  #transport: ChildTransport;
  #client = new Client({ name: "yieldshell-smoke", version: "1.0.0" });
  #trees: number[] = [];

  constructor(options: SmokeOptions) {
    this.#binary = options.binary;
    this.#version = options.version;
    this.#leftoverGraceMs = options.leftoverGraceMs ?? DEFAULT_LEFTOVER_GRACE_MS;
    this.#asset = options.asset;
    this.#signed = options.signed ?? false;
    this.#transport = new ChildTransport(options.binary);
  }

  checks(): Check[] {
    const asset = this.#asset;
    return [
      ...asset === undefined ? [] : [{
        name: `is the release asset ${asset.name} listed in SHA256SUMS`,
        run: () => checkAsset(this.#binary, asset),
      }],
      ...this.#signed
        ? [{ name: "carries a valid code signature", run: () => checkSignature(this.#binary) }]
        : [],
      { name: `--version prints yieldshell ${this.#version}`, run: () => this.#checkVersion() },
      { name: "--help prints the usage", run: () => this.#checkHelp() },
      { name: "initialize over stdio", run: () => this.#checkInitialize() },
      { name: "tools/list lists the eight tools", run: () => this.#checkTools() },
      { name: "execute runs a command through the default shell", run: () => this.#checkShell() },
      {
        name: "a background execution is stopped with its whole process tree",
        run: () => this.#checkStop(),
      },
      {
        name: "stdin EOF shuts the server down with no child left behind",
        run: () => this.#checkShutdown(),
      },
    ];
  }

  async #checkVersion(): Promise<string> {
    const output = await runOnce(this.#binary, ["--version"]);
    const stdout = new TextDecoder().decode(output.stdout).trim();
    if (output.code !== 0 || stdout !== `yieldshell ${this.#version}`) {
      fail(`expected "yieldshell ${this.#version}" and exit code 0, got ${describeOutput(output)}`);
    }
    return stdout;
  }

  async #checkHelp(): Promise<string> {
    const output = await runOnce(this.#binary, ["--help"]);
    const stdout = new TextDecoder().decode(output.stdout);
    if (
      output.code !== 0 || !stdout.startsWith("Usage: yieldshell") ||
      !stdout.includes("--transport")
    ) {
      fail(
        `expected "Usage: yieldshell" with every flag and exit code 0, got ${
          describeOutput(output)
        }`,
      );
    }
    return `${stdout.split("\n").length} lines`;
  }

  async #checkInitialize(): Promise<string> {
    try {
      await within(
        this.#client.connect(this.#transport),
        REQUEST_TIMEOUT_MS,
        "no answer to initialize",
      );
    } catch (error) {
      fail(`${(error as Error).message}; server stderr: ${this.#transport.stderr.trim()}`);
    }
    const server = this.#client.getServerVersion();
    if (server?.version !== this.#version) {
      fail(`expected serverInfo version ${this.#version}, got ${JSON.stringify(server)}`);
    }
    return `serverInfo ${server.name} ${server.version}`;
  }

  async #checkTools(): Promise<string> {
    const { tools } = await this.#client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    const names = tools.map((tool: { name: string }) => tool.name).sort();
    if (JSON.stringify(names) !== JSON.stringify(TOOL_NAMES)) {
      fail(`expected ${TOOL_NAMES.join(", ")}, got ${names.join(", ")}`);
    }
    return names.join(", ");
  }

  async #call(name: string, args: Record<string, unknown>): Promise<Payload> {
    const result = await this.#client.callTool({ name, arguments: args }, undefined, {
      timeout: REQUEST_TIMEOUT_MS,
    }) as CallToolResult;
    const payload = (result.structuredContent ?? {}) as Payload;
    if (result.isError === true) fail(`${name} failed: ${JSON.stringify(payload)}`);
    return payload;
  }

  async #checkShell(): Promise<string> {
    const { expand, expected } = this.#commands;
    const payload = await this.#call("execute", { command: expand, side_effects: ["NONE"] });
    const stdout = String(payload.stdout ?? "").trim();
    if (payload.status !== "completed" || payload.exit_code !== 0 || stdout !== expected) {
      fail(`expected completed, exit code 0 and "${expected}", got ${JSON.stringify(payload)}`);
    }
    return `${JSON.stringify(expand)} printed ${JSON.stringify(stdout)}`;
  }

  /** Starts the long-running tree in the background and returns its pids once it has children. */
  async #startTree(name: string): Promise<{ id: string; tree: number[] }> {
    const payload = await this.#call("execute", {
      command: this.#commands.tree,
      side_effects: ["NONE"],
      yield_ms: 0,
      name,
    });
    if (payload.status !== "backgrounded" || typeof payload.process_id !== "number") {
      fail(`expected backgrounded with a process_id, got ${JSON.stringify(payload)}`);
    }
    const tree = await until(async () => {
      const found = descendants(await readProcessTable(), payload.process_id);
      return found.length >= 2 ? found : null;
    }, `the shell ${payload.process_id} did not start a child`);
    this.#trees.push(...tree);
    return { id: payload.execution_id, tree };
  }

  /** `tree` and whatever else now runs below its shell, which may have started more since. */
  async #grown(tree: number[]): Promise<number[]> {
    const now = descendants(await readProcessTable(), tree[0]);
    const grown = [...new Set([...tree, ...now])];
    this.#trees.push(...grown);
    return grown;
  }

  async #treeGone(tree: number[], what: string): Promise<void> {
    let alive = tree;
    try {
      await until(
        async () => {
          alive = await stillAlive(tree);
          return alive.length === 0 ? true : null;
        },
        what,
        this.#leftoverGraceMs,
      );
    } catch (error) {
      fail(`${(error as Error).message}: ${alive.join(", ")} still alive`);
    }
  }

  async #checkStop(): Promise<string> {
    const started = await this.#startTree("smoke-stop");
    const { id } = started;
    const tree = await this.#grown(started.tree);
    const stop = await this.#call("stop", { execution_id: id });
    if (stop.stopped !== true) fail(`expected stopped: true, got ${JSON.stringify(stop)}`);
    const wait = await this.#call("wait", { execution_id: id, timeout_ms: 30_000 });
    if (wait.wait_result !== "exited") {
      fail(`expected wait_result exited, got ${JSON.stringify(wait)}`);
    }
    await this.#treeGone(tree, "the stopped process tree did not exit");
    return `stopped pids ${tree.join(", ")} (status ${wait.status})`;
  }

  async #checkShutdown(): Promise<string> {
    const tree = await this.#grown((await this.#startTree("smoke-shutdown")).tree);
    await this.#transport.endInput();
    let status;
    try {
      status = await within(
        this.#transport.status,
        EXIT_DEADLINE_MS,
        "the server did not exit after stdin EOF",
      );
    } catch (error) {
      fail(`${(error as Error).message}; server stderr: ${this.#transport.stderr.trim()}`);
    }
    if (status.code !== 0) {
      fail(
        `the server exited with code ${status.code} after stdin EOF; stderr: ${this.#transport.stderr.trim()}`,
      );
    }
    await this.#treeGone(tree, "children were left behind after the server exited");
    return `server exited 0; pids ${tree.join(", ")} gone`;
  }

  /** Stops the server and kills whatever a failed check left behind. */
  async dispose(): Promise<void> {
    await this.#client.close().catch(() => {});
    await this.#transport.close().catch(() => {});
    if (this.#trees.length > 0) {
      await killAll(await stillAlive(this.#trees).catch(() => this.#trees));
    }
  }
}
