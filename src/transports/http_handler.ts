import {
  isInitializeRequest,
  isJSONRPCRequest,
  type JSONRPCRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logger.ts";
import { MAX_BODY_BYTES, readBodyWithin } from "./http_body.ts";
import {
  corsHeaders,
  ErrorCode,
  errorResponse,
  PREFLIGHT_HEADERS,
  releaseWhenDone,
  withHeaders,
} from "./http_response.ts";
import { screenRequest } from "./http_screen.ts";
import { checkHost, checkOrigin, isCorsOrigin } from "./http_security.ts";
import { type HttpSession, SessionRegistry } from "./http_sessions.ts";
import { isCancelledNotification, messagesOf } from "./json_rpc_messages.ts";
import type { SessionFactory } from "./session.ts";

/** A session with no request and no live execution for this long ends: 30 minutes. */
export const IDLE_SESSION_MS = 30 * 60_000;

/** What the HTTP transport needs from the application. */
export interface HttpApp {
  createSession: SessionFactory;
}

/** Settings of the HTTP transport (the application's `Config` has them all). */
export interface HttpConfig {
  host: string;
  port: number;
  authToken: string | null;
  allowedOrigins: readonly string[];
  maxHttpSessions: number;
  maxConcurrentRequests: number;
  requestReadTimeoutMs: number;
}

/** Options for {@linkcode createHttpHandler}. */
export interface HttpHandlerOptions {
  app: HttpApp;
  config: HttpConfig;
  logger: Logger;
  /** Largest request body read. @default {MAX_BODY_BYTES} */
  maxBodyBytes?: number;
  /** Idle time after which a session without live executions ends. @default {IDLE_SESSION_MS} */
  idleSessionMs?: number;
  /** Monotonic clock in milliseconds. @default {performance.now} */
  now?: () => number;
}

/** A request handler with the session registry behind it. */
export interface HttpHandler {
  (request: Request): Promise<Response>;
  /** Ends idle sessions (see `IDLE_SESSION_MS`); returns how many ended. */
  expireIdle(): Promise<number>;
  /** Sessions currently open. */
  sessionCount(): number;
  /** Refuses further requests and ends every session; idempotent. */
  close(): Promise<void>;
}

/**
 * The streamable HTTP endpoint as a pure `Request -> Response` function: DNS-rebinding, bearer,
 * size and load checks in front of one SDK transport and one MCP server per session.
 */
export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  const { app, config, logger } = options;
  const { maxBodyBytes = MAX_BODY_BYTES, idleSessionMs = IDLE_SESSION_MS } = options;
  const now = options.now ?? (() => performance.now());
  const registry = new SessionRegistry({
    createSession: app.createSession,
    maxSessions: config.maxHttpSessions,
    idleSessionMs,
    now,
    logger,
  });
  /** POST bodies being read, and JSON-RPC requests whose reply is not complete. */
  let reading = 0;
  let inFlight = 0;
  let closing: Promise<void> | null = null;
  const busy = () =>
    errorResponse(
      503,
      `Server busy: ${config.maxConcurrentRequests} requests are already in progress, the most this server handles at once; retry in a moment`,
      { retryAfterS: 1 },
    );

  /** The parsed POST body, or the response refusing it. */
  async function readMessages(request: Request): Promise<{ body: unknown } | Response> {
    if (reading >= config.maxConcurrentRequests) return busy();
    reading++;
    let body;
    try {
      body = await readBodyWithin(request, maxBodyBytes);
    } finally {
      reading--;
    }
    if (body.kind === "too-large") {
      return errorResponse(
        413,
        `Payload too large: request bodies are limited to ${maxBodyBytes} bytes; send less per message, for example large stdin in several write calls`,
      );
    }
    if (body.kind === "unreadable") {
      return body.timedOut
        ? errorResponse(
          408,
          `Request timeout: the request body did not arrive within ${config.requestReadTimeoutMs} ms; send each request at once`,
        )
        : errorResponse(
          400,
          `Bad request: the request body could not be read to its end (${body.reason}); send the whole body with Content-Length or complete chunked framing`,
        );
    }
    try {
      return { body: JSON.parse(body.text) };
    } catch {
      return errorResponse(
        400,
        "Parse error: the request body is not valid JSON; send a JSON-RPC message or batch",
        { code: ErrorCode.parse },
      );
    }
  }

  async function route(
    request: Request,
    parsedBody: unknown,
    onSession: (session: HttpSession) => void,
  ): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const session = registry.get(sessionId);
      if (session === undefined) {
        return errorResponse(
          404,
          `Session not found: ${
            JSON.stringify(sessionId)
          } is unknown or has ended; start a new session with an initialize request sent without Mcp-Session-Id`,
          { code: ErrorCode.sessionNotFound },
        );
      }
      onSession(session);
      return await session.transport.handleRequest(request, { parsedBody });
    }
    if (request.method === "POST" && messagesOf(parsedBody).some(isInitializeRequest)) {
      const session = await registry.open();
      if (session === null) {
        return errorResponse(
          503,
          `Too many sessions: this server holds its limit of ${config.maxHttpSessions} MCP sessions; end unused ones (HTTP DELETE with their Mcp-Session-Id) or retry later`,
          { retryAfterS: 30 },
        );
      }
      onSession(session);
      try {
        return await session.transport.handleRequest(request, { parsedBody });
      } finally {
        await registry.settle(session);
      }
    }
    return errorResponse(
      400,
      "Bad request: the Mcp-Session-Id header is required; send an initialize request first and pass the Mcp-Session-Id it returns on every later request",
    );
  }

  async function handle(request: Request): Promise<Response> {
    const origin = request.headers.get("origin");
    const hostRefusal = checkHost(
      request.headers.get("host") ?? new URL(request.url).host,
      config.host,
    );
    if (hostRefusal !== null) return errorResponse(403, hostRefusal);
    const originRefusal = checkOrigin(origin, config.allowedOrigins);
    if (originRefusal !== null) return errorResponse(403, originRefusal);
    const corsAllowed = isCorsOrigin(origin, config.allowedOrigins);
    const cors = corsAllowed && origin !== null ? corsHeaders(origin) : {};
    if (request.method === "OPTIONS") {
      const headers = corsAllowed ? { ...cors, ...PREFLIGHT_HEADERS } : {};
      return new Response(null, { status: 204, headers });
    }
    const screened = screenRequest(request, config.authToken, closing !== null);
    if (screened !== null) return withHeaders(screened, cors);
    let parsedBody: unknown;
    if (request.method === "POST") {
      const read = await readMessages(request);
      if (read instanceof Response) return withHeaders(read, cors);
      parsedBody = read.body;
    }
    // Only JSON-RPC requests count, each entry of a batch as one: notifications (a cancellation
    // above all), DELETE and the GET event stream (one per session) must get through to a
    // saturated server.
    const messages = messagesOf(parsedBody);
    const calls = messages.filter((m): m is JSONRPCRequest => isJSONRPCRequest(m));
    const refusal = admitCalls(calls.length);
    if (refusal !== null) return withHeaders(refusal, cors);
    inFlight += calls.length;
    const releases: (() => void)[] = [() => inFlight -= calls.length];
    const releaseAll = () => releases.forEach((release) => release());
    let session: HttpSession | undefined;
    try {
      const response = await route(request, parsedBody, (routed) => {
        session = routed;
        releases.push(registry.track(routed, calls.map((call) => call.id)));
      });
      const cancelled = messages.filter(isCancelledNotification)
        .flatMap((m) => m.params.requestId ?? []);
      if (session !== undefined && cancelled.length > 0) registry.endCancelled(session, cancelled);
      return withHeaders(releaseWhenDone(response, releaseAll), cors);
    } catch (error) {
      releaseAll();
      throw error;
    }
  }

  /** The refusal of `count` more JSON-RPC requests at once, or null when they fit. */
  function admitCalls(count: number): Response | null {
    if (count > config.maxConcurrentRequests) {
      return errorResponse(
        413,
        `Payload too large: this batch carries ${count} requests and the server handles at most ${config.maxConcurrentRequests} at once; send smaller batches`,
      );
    }
    return count > 0 && inFlight + count > config.maxConcurrentRequests ? busy() : null;
  }

  return Object.assign(handle, {
    expireIdle: () => registry.expireIdle(),
    sessionCount: () => registry.size,
    close: () => closing ??= registry.closeAll(),
  });
}
