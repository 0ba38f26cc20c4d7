import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { serverCommand } from "../../tests/e2e/harness.ts";
import { closeChild } from "./child.ts";
import type { Payload } from "./session.ts";

const root = new URL("../../", import.meta.url).pathname;
const LINE_FEED = 0x0a;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A bare JSON-RPC client over the server's stdio whose line framing is linear
 * in the bytes received (the SDK's ReadBuffer re-scans its whole buffer on every
 * chunk). Used only for the diagnostic throughput figure that separates the
 * server's cost from the SDK client's.
 */
export class RawClient implements AsyncDisposable {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #partial: Uint8Array[] = [];
  #lines: string[] = [];
  #nextId = 1;
  #closed: Promise<void> | null = null;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#reader = child.stdout.getReader();
  }

  /** Starts the server as the README does and completes the MCP handshake. */
  static async start(env: Record<string, string>): Promise<RawClient> {
    const { command, args } = serverCommand();
    const child = new Deno.Command(command, {
      args,
      cwd: root,
      env: { ...Deno.env.toObject(), ...env },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const client = new RawClient(child);
    try {
      await client.#request("initialize", {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "yieldshell-bench-raw", version: "1.0.0" },
      });
      await client.#send({ jsonrpc: "2.0", method: "notifications/initialized" });
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  /** Calls a tool and returns its structured content; throws on an error reply. */
  async call(name: string, args: Record<string, unknown>): Promise<Payload> {
    const result = await this.#request("tools/call", { name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
    return result.structuredContent;
  }

  /** Closes stdin, waits for the server to exit, and kills it if it lingers. */
  close(): Promise<void> {
    this.#closed ??= closeChild(this.#child, this.#writer, {
      killAfterMs: 15_000,
      whileWaiting: () => this.#reader.cancel().catch(() => {}),
    });
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #send(message: unknown): Promise<void> {
    await this.#writer.write(encoder.encode(`${JSON.stringify(message)}\n`));
  }

  async #request(method: string, params: unknown): Promise<Payload> {
    const id = this.#nextId++;
    await this.#send({ jsonrpc: "2.0", id, method, params });
    while (true) {
      const message = JSON.parse(await this.#nextLine());
      if (message.id !== id) continue;
      if (message.error !== undefined) {
        throw new Error(`${method} failed: ${JSON.stringify(message.error)}`);
      }
      return message.result;
    }
  }

  async #nextLine(): Promise<string> {
    while (this.#lines.length === 0) {
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("Server closed stdout before answering");
      let start = 0;
      // Only the new chunk is searched, so framing stays linear in the bytes received.
      for (let end = value.indexOf(LINE_FEED); end >= 0; end = value.indexOf(LINE_FEED, start)) {
        this.#partial.push(value.subarray(start, end));
        this.#lines.push(joinText(this.#partial));
        this.#partial = [];
        start = end + 1;
      }
      if (start < value.length) this.#partial.push(value.subarray(start));
    }
    return this.#lines.shift()!;
  }
}

function joinText(parts: Uint8Array[]): string {
  if (parts.length === 1) return decoder.decode(parts[0]);
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return decoder.decode(joined);
}
