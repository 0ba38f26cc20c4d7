import { type HeadRefusal, parseRequestHead, type RequestHead } from "./http1_head.ts";
import { readRequestBody, type RequestBody } from "./http1_body.ts";
import { ConnReader, ReadError } from "./http1_reader.ts";
import { type WriteAll, writeResponse } from "./http1_response.ts";
import { errorResponse } from "./http_response.ts";

/** Largest request head (request line and headers): 64 KiB. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** An idle kept-alive connection is closed after this long: 60 s. */
export const IDLE_CONNECTION_MS = 60_000;
/** How long a closing connection keeps discarding what the client still sends: 2 s. */
const LINGER_MS = 2_000;
/** Pause before accepting again after accept failed (such as EMFILE). */
const ACCEPT_RETRY_MS = 100;
const HEAD_END = new Uint8Array([13, 10, 13, 10]);

export interface Http1ServerOptions {
  hostname: string;
  port: number;
  /** Answers one request; a rejection is answered by `onError`. */
  handler: (request: Request) => Promise<Response>;
  /** The answer to a request whose handler threw. */
  onError: (error: unknown) => Response;
  /** Longest time a client may take to send one request, head and body (408 after it). */
  requestReadTimeoutMs: number;
  /** @default {IDLE_CONNECTION_MS} */
  idleConnectionMs?: number;
}

/** A listening HTTP/1.1 server. */
export interface Http1Server {
  addr: Deno.NetAddr;
  /**
   * Stops accepting, closes idle connections and lets every request in progress finish (its
   * connection then closes); resolves when no connection is left.
   */
  shutdown(): Promise<void>;
  /** Stops accepting and closes every connection at once. */
  abort(): void;
}

/**
 * An HTTP/1.1 server over `Deno.listen`, in front of a `Request -> Response` handler. It exists
 * because `Deno.serve` has no timeouts: a client that sends its headers or body slowly holds its
 * connection, and its request slot, for ever. Here every request must arrive within
 * `requestReadTimeoutMs`, bodies are streamed to the handler as they arrive (chunked or by
 * length), and a connection closed with unread body bytes lingers so that the client reads the
 * answer (such as 413) instead of a reset.
 */
export function listenHttp1(options: Http1ServerOptions): Http1Server {
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const connections = new Set<Connection>();
  let closing = false;
  const accepting = (async () => {
    while (!closing) {
      let conn: Deno.TcpConn;
      try {
        conn = await listener.accept();
      } catch {
        // Closed, or out of file descriptors for a moment: retry unless shutting down.
        if (!closing) await new Promise((resolve) => setTimeout(resolve, ACCEPT_RETRY_MS));
        continue;
      }
      const connection = new Connection(conn, options, () => closing);
      connections.add(connection);
      // A failure ends only its own connection (serve() closes it in any case).
      connection.serve().catch(() => {}).finally(() => connections.delete(connection));
    }
  })();
  return {
    addr: listener.addr,
    async shutdown() {
      closing = true;
      try {
        listener.close();
      } catch { /* already closed */ }
      await accepting;
      for (const connection of connections) connection.closeIfIdle();
      await Promise.all([...connections].map((connection) => connection.finished));
    },
    abort() {
      closing = true;
      try {
        listener.close();
      } catch { /* already closed */ }
      for (const connection of connections) connection.close();
    },
  };
}

/** One client connection: requests read, answered and kept alive in turn. */
class Connection {
  #conn: Deno.TcpConn;
  #options: Http1ServerOptions;
  #closing: () => boolean;
  #reader: ConnReader;
  #idle = true;
  #done = Promise.withResolvers<void>();

  constructor(conn: Deno.TcpConn, options: Http1ServerOptions, closing: () => boolean) {
    this.#conn = conn;
    this.#options = options;
    this.#closing = closing;
    this.#reader = new ConnReader(conn);
    try {
      conn.setNoDelay(true);
    } catch { /* closed already */ }
  }

  /** Settles once the connection is closed. */
  get finished(): Promise<void> {
    return this.#done.promise;
  }

  async serve(): Promise<void> {
    try {
      // The first request must arrive within the read timeout of the connection opening.
      let requestStart: number | null = performance.now();
      let idleDeadline = requestStart + this.#options.requestReadTimeoutMs;
      while (!this.#closing()) {
        this.#idle = true;
        const head = await this.#readHead(idleDeadline, requestStart);
        this.#idle = false;
        if (head === null) break;
        const keepAlive = "status" in head.parsed
          ? await this.#refuse(head.parsed)
          : await this.#answer(head.parsed, head.startMs);
        if (!keepAlive) break;
        requestStart = null;
        idleDeadline = performance.now() + (this.#options.idleConnectionMs ?? IDLE_CONNECTION_MS);
      }
    } finally {
      this.close();
      this.#done.resolve();
    }
  }

  /** Closes the connection now if it is waiting for a request. */
  closeIfIdle(): void {
    if (this.#idle && this.#reader.buffered === 0) this.close();
  }

  close(): void {
    this.#reader.release();
    try {
      this.#conn.close();
    } catch { /* already closed */ }
  }

  /**
   * The next request head and when it started, or null when the client closed the connection
   * or stayed idle too long. A head that arrives too slowly or too large is refused.
   */
  async #readHead(
    idleDeadline: number,
    firstRequestStart: number | null,
  ): Promise<{ parsed: RequestHead | HeadRefusal; startMs: number } | null> {
    const reader = this.#reader;
    let startMs = firstRequestStart;
    let searchFrom = 0;
    for (;;) {
      // Empty lines before a request are allowed (RFC 9112 section 2.2).
      while (reader.buffered >= 2 && reader.indexOf(HEAD_END.subarray(0, 2)) === 0) reader.take(2);
      if (reader.buffered > 0) startMs ??= performance.now();
      const end = reader.indexOf(HEAD_END, searchFrom);
      if (end !== -1 && end <= MAX_HEAD_BYTES) {
        const text = new TextDecoder("latin1").decode(reader.take(end + 4).subarray(0, end));
        return { parsed: parseRequestHead(text), startMs: startMs ?? performance.now() };
      }
      if (end !== -1 || reader.buffered > MAX_HEAD_BYTES) {
        const message =
          `Request header fields too large: the request line and headers are limited to ${MAX_HEAD_BYTES} bytes; send fewer or shorter headers`;
        return { parsed: { status: 431, message }, startMs: startMs ?? performance.now() };
      }
      searchFrom = Math.max(0, reader.buffered - 3);
      const deadline = startMs === null
        ? idleDeadline
        : startMs + this.#options.requestReadTimeoutMs;
      try {
        if (!(await reader.fill(deadline))) return null;
      } catch (error) {
        if (!(error instanceof ReadError) || startMs === null) return null;
        const message =
          `Request timeout: the request headers did not arrive within ${this.#options.requestReadTimeoutMs} ms; send each request at once`;
        return { parsed: { status: 408, message }, startMs };
      }
    }
  }

  /** Answers a refused head; the connection then closes. */
  async #refuse(refusal: HeadRefusal): Promise<false> {
    await this.#respond(errorResponse(refusal.status, refusal.message), {
      keepAlive: false,
      headOnly: false,
      minorVersion: 1,
      requestRead: false,
    });
    return false;
  }

  /** Runs the handler for one request and writes its answer; true to keep the connection. */
  async #answer(head: RequestHead, startMs: number): Promise<boolean> {
    const { requestReadTimeoutMs } = this.#options;
    const bodyAllowed = head.method !== "GET" && head.method !== "HEAD";
    let body: RequestBody | null = null;
    if (head.framing.kind !== "none" && bodyAllowed) {
      body = readRequestBody(this.#reader, head.framing, {
        deadlineMs: startMs + requestReadTimeoutMs,
        beforeFirstRead: head.expectsContinue
          ? () => this.#write(new TextEncoder().encode("HTTP/1.1 100 Continue\r\n\r\n"))
          : undefined,
      });
    }
    let response: Response;
    try {
      const request = new Request(`http://${hostOf(this.#conn.localAddr)}${head.target}`, {
        method: head.method,
        headers: head.headers,
        body: body?.stream ?? null,
      });
      response = await this.#options.handler(request);
    } catch (error) {
      response = this.#options.onError(error);
    }
    const bodyRead = head.framing.kind === "none" || (body?.complete ?? false);
    const keepAlive = head.keepAlive && head.minorVersion === 1 && bodyRead && !this.#closing();
    const written = await this.#respond(response, {
      keepAlive,
      headOnly: head.method === "HEAD",
      minorVersion: head.minorVersion,
      requestRead: bodyRead,
    });
    return written && keepAlive;
  }

  /**
   * Writes a response while watching for the client to go away; when the connection is not kept
   * alive, closes it after discarding what the client still sends for a moment. `requestRead`
   * says whether the whole request was read: only then does end of input mean that the client
   * left (as hyper, behind `Deno.serve`, takes it); before, it only ends the client's upload.
   */
  async #respond(
    response: Response,
    options: { keepAlive: boolean; headOnly: boolean; minorVersion: 0 | 1; requestRead: boolean },
  ): Promise<boolean> {
    const { requestRead, ...writeOptions } = options;
    const watch = requestRead
      ? this.#watchClient()
      : { gone: new Promise<void>(() => {}), stop() {} };
    const written = await writeResponse((bytes) => this.#write(bytes), response, {
      ...writeOptions,
      idleTimeoutS: Math.floor((this.#options.idleConnectionMs ?? IDLE_CONNECTION_MS) / 1000),
      clientGone: watch.gone,
    });
    watch.stop();
    // Unread request bytes at close would make the kernel reset the connection, and the client
    // could lose the answer (such as 413): discard them for a moment first.
    if (!options.keepAlive && written && !requestRead) {
      try {
        await this.#conn.closeWrite();
      } catch { /* the client is gone */ }
      await this.#reader.drain(performance.now() + LINGER_MS);
    }
    return written;
  }

  /** Settles `gone` when the client closes the connection while a response is written. */
  #watchClient(): { gone: Promise<void>; stop(): void } {
    const gone = Promise.withResolvers<void>();
    let watching = true;
    (async () => {
      // Bytes of a pipelined next request are kept; past a bound the watch gives up.
      while (watching && this.#reader.buffered < MAX_HEAD_BYTES) {
        if (!(await this.#reader.fill(Infinity))) {
          gone.resolve();
          return;
        }
      }
    })();
    return {
      gone: gone.promise,
      stop: () => {
        watching = false;
      },
    };
  }

  #write: WriteAll = async (bytes) => {
    let offset = 0;
    while (offset < bytes.byteLength) offset += await this.#conn.write(bytes.subarray(offset));
  };
}

function hostOf(addr: Deno.Addr): string {
  if (addr.transport !== "tcp") return "localhost";
  return addr.hostname.includes(":")
    ? `[${addr.hostname}]:${addr.port}`
    : `${addr.hostname}:${addr.port}`;
}
