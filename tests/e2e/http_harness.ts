import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { fileURLToPath } from "node:url";
import { serverCommand, type ToolReply } from "./harness.ts";

// fileURLToPath, not URL.pathname: on Windows that would be "/C:/...", neither a cwd nor a path.
const root = fileURLToPath(new URL("../../", import.meta.url));

/** A server started over HTTP as the README does, on a free loopback port. */
export interface HttpServerProcess extends AsyncDisposable {
  url: string;
  port: number;
  child: Deno.ChildProcess;
  stderr(): string;
  /** Sends `signal` (SIGTERM by default) and waits for the exit. */
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

export async function startHttpServer(
  options: { args?: string[]; env?: Record<string, string> } = {},
): Promise<HttpServerProcess> {
  // As the README does (plus a net grant for loopback), or a compiled binary (YIELDSHELL_BIN).
  const { command, args } = serverCommand(["--transport", "http", "--port", "0"], [
    "--allow-net=127.0.0.1",
  ]);
  const child = new Deno.Command(command, {
    args: [...args, ...options.args ?? []],
    cwd: root,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const listening = Promise.withResolvers<string>();
  const pump = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      text += decoder.decode(chunk, { stream: true });
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match !== null) listening.resolve(match[1]);
    }
    listening.reject(new Error(`Server exited before listening:\n${text}`));
  })();
  let status: Promise<Deno.CommandStatus> | null = null;
  const stop = (signal: Deno.Signal = "SIGTERM") => {
    status ??= (async () => {
      try {
        child.kill(signal);
      } catch { /* already exited */ }
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* already exited */ }
      }, 30_000);
      const result = await child.status;
      clearTimeout(timer);
      await pump;
      return result;
    })();
    return status;
  };
  try {
    const url = await listening.promise;
    return {
      url,
      port: Number(new URL(url).port),
      child,
      stderr: () => text,
      stop,
      async [Symbol.asyncDispose]() {
        await stop();
      },
    };
  } catch (error) {
    await stop("SIGKILL");
    throw error;
  }
}

/** An SDK client connected to an HTTP server, one session. */
export interface HttpSession extends AsyncDisposable {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** The session id the server assigned at initialize. */
  sessionId: string;
  /** Calls a tool and returns its structured payload and error flag. */
  call(name: string, args?: Record<string, unknown>): Promise<Omit<ToolReply, "text">>;
}

/**
 * Connects a real SDK client over streamable HTTP: a session of its own, sending `headers`
 * (an `Authorization`, say) with every request.
 */
export async function connectHttp(
  url: string,
  headers: Record<string, string> = {},
): Promise<HttpSession> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "yieldshell-http-e2e", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    sessionId: transport.sessionId ?? "",
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: 120_000,
      }) as CallToolResult;
      return {
        payload: (result.structuredContent ?? {}) as ToolReply["payload"],
        isError: result.isError === true,
      };
    },
    async [Symbol.asyncDispose]() {
      await client.close().catch(() => {});
    },
  };
}

/** What the MCP endpoint accepts from a client. */
export const MCP_ACCEPT = "application/json, text/event-stream";

/** A raw POST of one JSON-RPC message (or any text, sent as is) to the endpoint. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: MCP_ACCEPT, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
