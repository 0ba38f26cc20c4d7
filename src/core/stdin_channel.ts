import { errorText } from "../contract/error_text.ts";
import * as text from "../contract/texts.ts";
import type { Logger } from "./logger.ts";
import { delay } from "./timing.ts";

const encoder = new TextEncoder();
/** What a write still pending when stdin closes fails with (the message of Deno's AbortError). */
const ABORTED = "The signal has been aborted";

/** The stdin of one execution: initial input, later writes with a deadline, and EOF. */
export class StdinChannel {
  #writer: WritableStreamDefaultWriter<Uint8Array> | null;
  #busy = false;
  #logger: Logger;
  /** Why the initial input could not be delivered, once that is known. */
  error: string | null = null;

  constructor(stdin: WritableStream<Uint8Array>, logger: Logger) {
    this.#writer = stdin.getWriter();
    this.#logger = logger;
  }

  get closed(): boolean {
    return this.#writer === null;
  }

  /** True while the initial input is still being written. */
  get busy(): boolean {
    return this.#busy;
  }

  /** Writes the initial input in the background, then closes stdin if asked. */
  startInitialInput(input: string | null, close: boolean): void {
    const writer = this.#writer;
    if (input === null || input === "" || writer === null) {
      if (close) this.close();
      return;
    }
    this.#busy = true;
    writer.write(encoder.encode(input)).catch((error: unknown) => {
      this.error = errorText(error);
    }).finally(() => {
      this.#busy = false;
      if (close) this.close();
    });
  }

  /** Writes within `timeoutMs`; null on success, else the contract's error text. */
  async write(input: string, timeoutMs: number): Promise<string | null> {
    const writer = this.#writer;
    if (writer === null) return text.STDIN_CLOSED;
    const stop = new AbortController();
    const timedOut = delay(timeoutMs, stop.signal).then(() => text.stdinTimedOut(timeoutMs));
    try {
      return await Promise.race([
        writer.write(encoder.encode(input)).then(() => null, (error) => errorText(error)),
        timedOut,
      ]);
    } finally {
      stop.abort("written");
    }
  }

  /** Delivers EOF; idempotent. */
  close(): void {
    const writer = this.#writer;
    if (writer === null) return;
    this.#writer = null;
    // A pending backpressured write would make close() wait forever; abort drops it instead.
    // abort() of a closed or errored stream resolves, so a rejection is worth a word. The
    // reason (the text a pending write reported before) spares building a DOMException, and
    // its stack, for every execution.
    writer.abort(ABORTED).catch((error) =>
      this.#logger.warn(`Cannot close stdin: ${errorText(error)}`)
    );
  }
}
