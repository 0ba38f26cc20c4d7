/** Writes all of `bytes` to the client or throws. */
export type WriteAll = (bytes: Uint8Array) => Promise<void>;

export interface ResponseWriteOptions {
  /** The request was HEAD: headers only. */
  headOnly: boolean;
  /** Whether the connection stays open for another request. */
  keepAlive: boolean;
  /** Seconds an idle kept-alive connection stays open, announced in `Keep-Alive`. */
  idleTimeoutS: number;
  /** 0 for an HTTP/1.0 client, which gets the body unframed and the connection closed. */
  minorVersion: 0 | 1;
  /** Settles when the client has gone away; the body stream is then cancelled. */
  clientGone: Promise<void>;
}

/** Headers whose meaning belongs to the connection, which this writer sets itself. */
const CONNECTION_HEADERS = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
]);
const encoder = new TextEncoder();

/**
 * Writes `response` to the client: a chunked body (or, for HTTP/1.0, the raw body), flushing
 * each piece as the stream yields it so that server-sent events arrive at once. Resolves true
 * when the response was written in full, false when the client went away or a write failed.
 */
export async function writeResponse(
  write: WriteAll,
  response: Response,
  options: ResponseWriteOptions,
): Promise<boolean> {
  const { headOnly, keepAlive, minorVersion } = options;
  const bodyless = response.status === 204 || response.status === 304;
  const chunked = minorVersion === 1 && response.body !== null && !bodyless;
  const lines = [`HTTP/1.1 ${response.status} ${response.statusText || reasonOf(response.status)}`];
  for (const [name, value] of response.headers) {
    if (!CONNECTION_HEADERS.has(name)) lines.push(`${name}: ${value}`);
  }
  if (chunked) lines.push("transfer-encoding: chunked");
  else if (response.body === null && !bodyless) lines.push("content-length: 0");
  lines.push(keepAlive ? "connection: keep-alive" : "connection: close");
  if (keepAlive) lines.push(`keep-alive: timeout=${options.idleTimeoutS}`);
  const reader = response.body?.getReader();
  const head = encoder.encode(`${lines.join("\r\n")}\r\n\r\n`);
  try {
    if (reader === undefined) {
      await write(head);
      return true;
    }
    if (headOnly || bodyless) {
      await write(head);
      await reader.cancel();
      return true;
    }
    let gone = false;
    options.clientGone.then(() => {
      gone = true;
      reader.cancel().catch(() => {});
    });
    // What the stream yields at once goes out in one write, with the head: a write is the
    // costliest step here, and clients read a response in one piece faster than in several
    // TCP segments. The head waits a moment for the first piece of the body (most answers are
    // ready within milliseconds), never longer.
    const pending = new PendingBytes(write, head);
    for (let first = true;; first = false) {
      const next = reader.read();
      let chunk = await within(next, first ? HEAD_HOLD_MS : 0);
      if (chunk === SOON) {
        await pending.flush();
        chunk = await next;
      }
      if (gone) return false;
      if (chunk.done) break;
      if (chunk.value.byteLength === 0) continue;
      await pending.add(chunked ? frame(chunk.value) : chunk.value);
    }
    if (chunked) await pending.add(encoder.encode("0\r\n\r\n"));
    await pending.flush();
    return true;
  } catch {
    await reader?.cancel().catch(() => {});
    return false;
  }
}

const SOON = Symbol("soon");

/** Longest wait for the first piece of a body before the head is sent alone. */
const HEAD_HOLD_MS = 50;

/** `next` if it settles within `delayMs` (0: this turn of the event loop), else `SOON`. */
async function within<T>(next: Promise<T>, delayMs: number): Promise<T | typeof SOON> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof SOON>((resolve) => {
    timer = setTimeout(() => resolve(SOON), delayMs);
  });
  try {
    return await Promise.race([next, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Bytes held for one write, flushed at 64 KiB or when asked. */
class PendingBytes {
  static readonly LIMIT = 64 * 1024;
  #write: WriteAll;
  #parts: Uint8Array[];
  #bytes: number;

  constructor(write: WriteAll, first: Uint8Array) {
    this.#write = write;
    this.#parts = [first];
    this.#bytes = first.byteLength;
  }

  async add(bytes: Uint8Array): Promise<void> {
    this.#parts.push(bytes);
    this.#bytes += bytes.byteLength;
    if (this.#bytes >= PendingBytes.LIMIT) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#parts.length === 0) return;
    const joined = new Uint8Array(this.#bytes);
    let offset = 0;
    for (const part of this.#parts) {
      joined.set(part, offset);
      offset += part.byteLength;
    }
    this.#parts = [];
    this.#bytes = 0;
    await this.#write(joined);
  }
}

/** One chunk of the chunked coding: size line, data, CRLF, in one buffer (one write). */
function frame(data: Uint8Array): Uint8Array {
  const size = encoder.encode(`${data.byteLength.toString(16)}\r\n`);
  const framed = new Uint8Array(size.byteLength + data.byteLength + 2);
  framed.set(size);
  framed.set(data, size.byteLength);
  framed.set([13, 10], size.byteLength + data.byteLength);
  return framed;
}

const REASONS: Record<number, string> = {
  200: "OK",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
  505: "HTTP Version Not Supported",
};

function reasonOf(status: number): string {
  return REASONS[status] ?? "";
}
