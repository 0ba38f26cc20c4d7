import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { fileURLToPath } from "node:url";

// fileURLToPath, not URL.pathname: on Windows that would be "/C:/...", neither a cwd nor a path.
const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * How the README starts the server (with `denoFlags` such as a net grant added to
 * `-P=server`, or `-P=tty` for terminal mode), or a compiled binary, whose permissions are
 * baked in, when YIELDSHELL_BIN is set.
 */
export function serverCommand(
  args: string[] = [],
  denoFlags: string[] = [],
  permissionSet: "server" | "tty" = "server",
): { command: string; args: string[] } {
  const binary = Deno.env.get("YIELDSHELL_BIN");
  if (binary) return { command: binary, args };
  return {
    command: Deno.execPath(),
    args: ["run", "-q", `-P=${permissionSet}`, ...denoFlags, `${root}main.ts`, ...args],
  };
}

/** A running server and a connected SDK client. */
export interface Session extends AsyncDisposable {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool and returns its structured payload and error flag. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolReply>;
  /** Closes stdin and waits for the server to exit; returns its exit code. */
  close(): Promise<number | null>;
}

export interface ToolReply {
  // deno-lint-ignore no-explicit-any
  payload: Record<string, any>;
  isError: boolean;
  text: string;
}

export interface StartOptions {
  env?: Record<string, string>;
  args?: string[];
  cwd?: string;
  /** Deno flags added to `-P=server`, such as a write grant for another spool directory or a net grant. */
  denoFlags?: string[];
  /** The permission set: `tty` is `deno task start:tty`'s (terminal mode). @default {"server"} */
  permissionSet?: "server" | "tty";
}

/** Starts the server as the README does and connects a real MCP client over stdio. */
export async function startServer(options: StartOptions = {}): Promise<Session> {
  const { command, args } = serverCommand(
    options.args,
    options.denoFlags ?? [],
    options.permissionSet,
  );
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: options.cwd ?? root,
    env: { ...Deno.env.toObject(), ...options.env },
    stderr: "pipe",
  });
  let stderrText = "";
  transport.stderr?.on("data", (chunk: Uint8Array | string) => {
    stderrText += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "yieldshell-e2e", version: "1.0.0" });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error("Server has no pid");
  let closed: Promise<number | null> | null = null;
  const close = () => {
    closed ??= (async () => {
      const exited = waitForExit(pid);
      await client.close().catch(() => {});
      return await exited;
    })();
    return closed;
  };
  return {
    client,
    transport,
    pid,
    stderr: () => stderrText,
    async call(name, toolArgs = {}) {
      const result = await client.callTool({ name, arguments: toolArgs }, undefined, {
        timeout: 120_000,
      }) as CallToolResult;
      const text = result.content?.[0]?.type === "text" ? result.content[0].text : "";
      return {
        payload: (result.structuredContent ?? {}) as Record<string, unknown>,
        isError: result.isError === true,
        text,
      };
    },
    close,
    async [Symbol.asyncDispose]() {
      await close();
      if (isAlive(pid)) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* already gone */ }
      }
    },
  };
}

/**
 * Whether a process exists and is not a zombie (zombies linger where init does not reap).
 * Linux only: it reads /proc, and elsewhere answers false for every pid.
 */
export function isAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/**
 * Polls until `pid` is gone; returns null (exit codes of non-children are not observable).
 * Linux only as a proof of exit: it relies on {@linkcode isAlive}, so elsewhere it returns at once.
 */
export async function waitForExit(pid: number, timeoutMs = 30_000): Promise<number | null> {
  const deadline = performance.now() + timeoutMs;
  while (isAlive(pid)) {
    if (performance.now() > deadline) {
      throw new Error(`Process ${pid} still alive after ${timeoutMs}ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return null;
}

/** Live processes whose environment carries `marker` (a value only our test set); Linux: /proc. */
export function processesWithMarker(marker: string): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const pid = Number(entry.name);
    try {
      const environ = Deno.readTextFileSync(`/proc/${pid}/environ`);
      if (environ.includes(marker) && isAlive(pid)) found.push(pid);
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** Polls `predicate` until it holds. */
export async function eventually(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  what = "condition",
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await predicate())) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A unique marker for tagging the processes a test starts. */
export function marker(): string {
  return `YS_TEST_${crypto.randomUUID().replaceAll("-", "")}`;
}
