import { serverCommand } from "./harness.ts";

const encoder = new TextEncoder();

/** One message as it came off the wire. */
export interface WireMessage {
  id?: number | string | null;
  method?: string;
  result?: { structuredContent?: Record<string, unknown> } & Record<string, unknown>;
  error?: { code: number; message: string };
}

/** An `initialize` request with id `id`. */
export function initializeRequest(id: number | string) {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    },
  };
}

/**
 * The server as the README starts it, spoken to in raw lines on its stdio (no SDK): for what a
 * client that is not the SDK may send, and for the order of what comes back.
 */
export class RawStdio {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: ReadableStreamDefaultReader<string>;
  #buffered = "";
  /** Every message read so far, in order. */
  readonly received: WireMessage[] = [];

  constructor(args: string[] = []) {
    const { command, args: argv } = serverCommand(args);
    this.#child = new Deno.Command(command, {
      args: argv,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** Writes `text` as it is (a part of a line, several lines, garbage). */
  async write(text: string): Promise<void> {
    await this.#writer.write(encoder.encode(text));
  }

  /** Writes one message as one line. */
  async send(message: unknown): Promise<void> {
    await this.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends `initialize` and returns its answer. */
  async initialize(): Promise<WireMessage> {
    await this.send(initializeRequest("init"));
    return await this.until((message) => message.id === "init");
  }

  /** Reads messages until one is `found`; returns it. */
  async until(found: (message: WireMessage) => boolean): Promise<WireMessage> {
    while (true) {
      const end = this.#buffered.indexOf("\n");
      if (end >= 0) {
        const message = JSON.parse(this.#buffered.slice(0, end)) as WireMessage;
        this.#buffered = this.#buffered.slice(end + 1);
        this.received.push(message);
        if (found(message)) return message;
        continue;
      }
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("The server's stdout ended");
      this.#buffered += value;
    }
  }

  /** Closes stdin, waits for the exit; returns the exit code and all of stderr. */
  async close(): Promise<{ code: number; stderr: string }> {
    await this.#writer.close().catch(() => {});
    await this.#reader.cancel().catch(() => {});
    const [status, stderr] = await Promise.all([
      this.#child.status,
      new Response(this.#child.stderr).text(),
    ]);
    return { code: status.code, stderr };
  }
}
