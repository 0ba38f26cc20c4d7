import type { ProtocolServer } from "../protocol/protocol_server.ts";
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Logger } from "../logger.ts";
import type { McpSession, SessionFactory } from "./session.ts";

/** One MCP session: its own server object over its own transport. */
export interface HttpSession {
  readonly id: string;
  readonly server: ProtocolServer;
  /** The application's side of the session: its live work. */
  readonly work: McpSession;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Requests whose response has not finished, the client's GET event stream included. */
  openRequests: number;
  /**
   * JSON-RPC requests not answered yet, each with the unanswered requests of the POST that
   * carried it (itself included: a batch shares one set).
   */
  readonly openCalls: Map<RequestId, Set<RequestId>>;
  /** When a request of this session last started or finished, in `now()` milliseconds. */
  lastActiveMs: number;
  /** Why the session ended, for the log. */
  endReason: string;
}

/** What the registry needs from the application. */
export interface SessionRegistryOptions {
  /** Builds a new session, owning the executions it starts. */
  createSession: SessionFactory;
  maxSessions: number;
  /** A session with no open request and no live execution for this long is ended. */
  idleSessionMs: number;
  /** Monotonic clock in milliseconds. */
  now(): number;
  logger: Logger;
}

/** The live HTTP sessions, their limit and their idle expiry. */
export class SessionRegistry {
  #options: SessionRegistryOptions;
  #sessions = new Map<string, HttpSession>();
  /** Sessions created for an initialize request that has not been answered yet. */
  #pending = 0;
  #closed = false;

  constructor(options: SessionRegistryOptions) {
    this.#options = options;
  }

  /** Sessions that completed initialize and have not ended. */
  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): HttpSession | undefined {
    return this.#sessions.get(id);
  }

  /**
   * A connected candidate session for an initialize request, or null when the limit is reached
   * even after idle sessions expire. Pass it to `settle` once the request has been answered.
   */
  async open(): Promise<HttpSession | null> {
    const full = () => this.#sessions.size + this.#pending >= this.#options.maxSessions;
    if (full()) await this.expireIdle();
    if (full()) return null;
    this.#pending++;
    const id = crypto.randomUUID();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        this.#sessions.set(id, session);
        this.#options.logger.info(`HTTP session ${id} started`);
      },
    });
    onAnswered(transport, (call) => {
      session.openCalls.get(call)?.delete(call);
      session.openCalls.delete(call);
    });
    const work = this.#options.createSession(id);
    const { server } = work;
    const session: HttpSession = {
      id,
      server,
      work,
      transport,
      openRequests: 0,
      openCalls: new Map(),
      lastActiveMs: this.#options.now(),
      endReason: "the client ended it (DELETE)",
    };
    // Set before connect: the server chains its own close handling after this one.
    transport.onclose = () => this.#ended(session);
    try {
      await server.connect(transport);
    } catch (error) {
      this.#pending--;
      throw error;
    }
    return session;
  }

  /** Drops a candidate whose initialize request did not start a session. */
  async settle(session: HttpSession): Promise<void> {
    this.#pending--;
    if (this.#closed) session.endReason = "the server is shutting down";
    if (this.#closed || !this.#sessions.has(session.id)) {
      await session.server.close().catch(() => {});
    }
  }

  /**
   * Counts a request of `session` as open until the returned function is called; `calls` are
   * the ids of the JSON-RPC requests the POST carries.
   */
  track(session: HttpSession, calls: readonly RequestId[] = []): () => void {
    session.openRequests++;
    session.lastActiveMs = this.#options.now();
    const group = new Set(calls);
    for (const call of calls) session.openCalls.set(call, group);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      session.openRequests--;
      for (const call of group) {
        if (session.openCalls.get(call) === group) session.openCalls.delete(call);
      }
      session.lastActiveMs = this.#options.now();
    };
  }

  /**
   * Ends the replies of requests the client cancelled. The SDK sends no response to a cancelled
   * request, so without this its stream, and its places under the request limit, would stay
   * open until the client disconnected. A request alone on its stream ends that stream; one in
   * a batch gets an error reply, so that the rest of the batch is still answered.
   */
  endCancelled(session: HttpSession, ids: readonly RequestId[]): void {
    for (const id of ids) {
      const group = session.openCalls.get(id);
      if (group === undefined) continue;
      if (group.size === 1) {
        session.transport.closeSSEStream(id);
        continue;
      }
      session.transport.send({
        jsonrpc: "2.0",
        id,
        error: { code: -32000, message: "Request cancelled: the client cancelled this request" },
      }).catch(() => {});
    }
  }

  /** Ends sessions idle for `idleSessionMs` with no open request and no live execution. */
  async expireIdle(): Promise<number> {
    const { idleSessionMs, now } = this.#options;
    const idle = [...this.#sessions.values()].filter((session) =>
      session.openRequests === 0 && now() - session.lastActiveMs >= idleSessionMs &&
      !session.work.hasLiveWork()
    );
    for (const session of idle) {
      session.endReason = `idle for ${Math.round(idleSessionMs / 1000)} s with no live execution`;
      await session.server.close().catch(() => {});
    }
    return idle.length;
  }

  /**
   * Ends every session (server shutdown). Requests in progress get an error reply first, so that
   * clients are not left waiting on a stream that ends without an answer.
   */
  async closeAll(): Promise<void> {
    this.#closed = true;
    const sessions = [...this.#sessions.values()];
    await Promise.all(sessions.map(async (session) => {
      session.endReason = "the server is shutting down";
      for (const id of [...session.openCalls.keys()]) {
        await session.transport.send({
          jsonrpc: "2.0",
          id,
          error: {
            code: -32000,
            message:
              "Server shutting down: this request was interrupted and its executions are being stopped; reconnect once the server has been started again",
          },
        }).catch(() => {});
      }
      await session.server.close().catch(() => {});
    }));
  }

  #ended(session: HttpSession): void {
    if (this.#sessions.get(session.id) !== session) return;
    this.#sessions.delete(session.id);
    const { logger } = this.#options;
    logger.info(`HTTP session ${session.id} ended: ${session.endReason}`);
    session.work.close().catch((error) =>
      logger.warn(`Stopping the executions of HTTP session ${session.id} failed: ${error}`)
    );
  }
}

/** Calls `answered` with the id of each response `transport` sends, once it is on its stream. */
function onAnswered(
  transport: WebStandardStreamableHTTPServerTransport,
  answered: (id: RequestId) => void,
): void {
  // The SDK's server object calls transport.send for every message; wrapping the instance's
  // method is the one place a response can be seen leaving.
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options?: TransportSendOptions) => {
    await send(message, options);
    const response = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    if (response && message.id !== undefined) answered(message.id);
  };
}
