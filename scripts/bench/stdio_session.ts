/**
 * A stdio MCP session for the side-by-side bench: the SDK's own `Client` and
 * `StdioClientTransport`, nothing of yieldshell's test harness, so every server
 * (ours and the peers) is driven by exactly the same code.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** How to start one server. */
export interface Launch {
  command: string;
  args: string[];
  cwd: string;
  /** The whole environment of the server. */
  env: Record<string, string>;
}

/** What a tool call answered: its first text block and its structured content. */
export interface Reply {
  text: string;
  // deno-lint-ignore no-explicit-any
  structured: Record<string, any> | undefined;
  isError: boolean;
}

/** A connected client and the server process behind it. */
export interface StdioSession extends AsyncDisposable {
  pid: number;
  call(name: string, args: Record<string, unknown>): Promise<Reply>;
  listTools(): Promise<string[]>;
  close(): Promise<void>;
}

/** Spawns the server, completes `initialize`; the session is ready for calls. */
export async function openSession(launch: Launch): Promise<StdioSession> {
  const transport = new StdioClientTransport({ ...launch, stderr: "pipe" });
  // Drain stderr so a chatty server never blocks on a full pipe.
  transport.stderr?.on("data", () => {});
  const client = new Client({ name: "yieldshell-bench-peers", version: "1.0.0" });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error(`${launch.command} ${launch.args.join(" ")} has no pid`);
  let closed: Promise<void> | null = null;
  const close = () => closed ??= closeClient(client, pid);
  return {
    pid,
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: 120_000,
      }) as CallToolResult;
      const first = result.content?.[0];
      return {
        text: first?.type === "text" ? first.text : "",
        structured: result.structuredContent,
        isError: result.isError === true,
      };
    },
    async listTools() {
      const { tools } = await client.listTools();
      return tools.map((tool: { name: string }) => tool.name);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Closes the client (the SDK ends stdin, then signals) and waits until the server is gone. */
async function closeClient(client: Client, pid: number): Promise<void> {
  await client.close().catch(() => {});
  const deadline = performance.now() + 10_000;
  while (alive(pid) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (alive(pid)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone meanwhile */ }
  }
}

function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\S+ \(.*\) [ZX]/s.test(stat);
  } catch {
    return false;
  }
}
