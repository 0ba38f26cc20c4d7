/**
 * An MCP client transport over a child process's stdio, owned here rather than by the SDK's
 * `StdioClientTransport`: that one kills the server when it closes, and the smoke test must see
 * the server exit by itself on stdin EOF, on every OS.
 */
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

const STDERR_KEPT_CHARS = 8_000;

/** A spawned server speaking newline-delimited JSON-RPC on stdin and stdout. */
export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #command: string;
  #args: string[];
  #child: Deno.ChildProcess | null = null;
  #stdin: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #stderr = "";
  #pumps: Promise<void>[] = [];
  #closed = false;

  constructor(command: string, args: string[] = []) {
    this.#command = command;
    this.#args = args;
  }

  /** The server's pid, once started. */
  get pid(): number {
    if (this.#child === null) throw new Error("The server has not been started");
    return this.#child.pid;
  }

  /** The last few thousand characters the server wrote to stderr. */
  get stderr(): string {
    return this.#stderr;
  }

  /** Resolves when the server has exited. */
  get status(): Promise<Deno.CommandStatus> {
    if (this.#child === null) throw new Error("The server has not been started");
    return this.#child.status;
  }

  start(): Promise<void> {
    this.#child = new Deno.Command(this.#command, {
      args: this.#args,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#stdin = this.#child.stdin.getWriter();
    this.#pumps = [this.#readStdout(this.#child.stdout), this.#readStderr(this.#child.stderr)];
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#stdin === null) throw new Error("The server's stdin is closed");
    await this.#stdin.write(new TextEncoder().encode(serializeMessage(message)));
  }

  /** Closes the server's stdin (EOF), which must make it shut down and exit. */
  async endInput(): Promise<void> {
    const stdin = this.#stdin;
    this.#stdin = null;
    await stdin?.close().catch(() => {});
  }

  /** Ends input, kills the server if it is still running, and waits for it. */
  async close(): Promise<void> {
    await this.endInput();
    if (this.#child !== null) {
      try {
        this.#child.kill("SIGKILL");
      } catch { /* already exited */ }
      await this.#child.status;
      await Promise.all(this.#pumps);
    }
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  async #readStdout(stdout: ReadableStream<Uint8Array>): Promise<void> {
    let pending = "";
    try {
      for await (const text of stdout.pipeThrough(new TextDecoderStream())) {
        pending += text;
        let newline;
        while ((newline = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, newline).replace(/\r$/, "");
          pending = pending.slice(newline + 1);
          if (line.trim() !== "") this.#deliver(line);
        }
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    this.#finish();
  }

  #deliver(line: string): void {
    try {
      this.onmessage?.(deserializeMessage(line));
    } catch (error) {
      this.onerror?.(
        new Error(`The server wrote a line that is not JSON-RPC: ${line}`, { cause: error }),
      );
    }
  }

  async #readStderr(stderr: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const text of stderr.pipeThrough(new TextDecoderStream())) {
        this.#stderr = (this.#stderr + text).slice(-STDERR_KEPT_CHARS);
      }
    } catch { /* the server is gone */ }
  }
}
