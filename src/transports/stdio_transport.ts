import { asMessage, type JsonRpcMessage } from "../protocol/json_rpc.ts";
import type { McpTransport } from "../protocol/transport.ts";
import { LineSplitter } from "./line_splitter.ts";

/** The largest message line read: execute's 16 MiB stdin and 1 MiB command, JSON-escaped. */
const MAX_LINE_BYTES = 128 * 1024 * 1024;
const READ_BUFFER_BYTES = 64 * 1024;

/** What the transport reads from and writes to (the process's stdin and stdout). */
export interface StdioStreams {
  input: { read(buffer: Uint8Array): Promise<number | null> };
  output: { write(bytes: Uint8Array): Promise<number> };
}

/**
 * MCP's stdio transport: one JSON-RPC message per line each way. A line that is not a
 * message is reported through `onerror` and skipped; stdin's end closes the transport.
 */
export class StdioTransport implements McpTransport {
  #streams: StdioStreams;
  #encoder = new TextEncoder();
  #writing: Promise<void> = Promise.resolve();
  #closed = false;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(streams: StdioStreams = { input: Deno.stdin, output: Deno.stdout }) {
    this.#streams = streams;
  }

  start(): Promise<void> {
    this.#readLoop().catch((error) => this.onerror?.(error)).finally(() => this.close());
    return Promise.resolve();
  }

  /** Writes one message line; lines never interleave. */
  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const bytes = this.#encoder.encode(`${JSON.stringify(message)}\n`);
    const written = this.#writing.then(() => this.#writeAll(bytes));
    this.#writing = written.catch(() => {});
    return written;
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.onclose?.();
    }
    return Promise.resolve();
  }

  async #writeAll(bytes: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      offset += await this.#streams.output.write(bytes.subarray(offset));
    }
  }

  async #readLoop(): Promise<void> {
    const splitter = new LineSplitter(MAX_LINE_BYTES);
    const buffer = new Uint8Array(READ_BUFFER_BYTES);
    const onLine = (line: string) => this.#receive(line);
    const onTooLong = () =>
      this.onerror?.(
        new Error(
          `Skipped a stdin line of more than ${MAX_LINE_BYTES} bytes: no message is that long`,
        ),
      );
    while (!this.#closed) {
      const count = await this.#streams.input.read(buffer);
      if (count === null) return;
      splitter.push(buffer.subarray(0, count), onLine, onTooLong);
    }
  }

  #receive(line: string): void {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.onerror?.(
        new Error(`Skipped a stdin line that is not JSON: ${(error as Error).message}`),
      );
      return;
    }
    const message = asMessage(value);
    if (typeof message === "string") {
      this.onerror?.(new Error(`Skipped a stdin line that is not a JSON-RPC message: ${message}`));
      return;
    }
    this.onmessage?.(message);
  }
}
