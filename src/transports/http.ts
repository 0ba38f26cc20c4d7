import {
  type CancelledNotification,
  CancelledNotificationSchema,
  isInitializeRequest,
  isJSONRPCRequest,
  type JSONRPCRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../contract/error_text.ts";
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
import { checkBearer, checkHost, checkOrigin, isCorsOrigin, urlHost } from "./http_security.ts";
import { listenHttp1 } from "./http1_server.ts";
import { type HttpSession, SessionRegistry } from "./http_sessions.ts";
import type { SessionFactory } from "./session.ts";

/** The MCP endpoint's path. */
export const MCP_PATH = "/mcp";
/** A session with no request and no live execution for this long ends: 30 minutes. */
export const IDLE_SESSION_MS = 30 * 60_000;
/** Upper bound on waiting for the listener to drain at shutdown. */
const SHUTDOWN_DRAIN_MS = 5_000;

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
    const screened = screen(request);
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

  /**
   * The checks after DNS-rebinding protection: closing, path, bearer token and method. Paths
   * other than /mcp answer 404 even without the token: there is nothing there to protect, and
   * an MCP client probing /.well-known/oauth-* for OAuth must learn that there is no OAuth here
   * (404) rather than be told to authenticate (401), so that it falls back to its configured
   * Authorization header.
   */
  function screen(request: Request): Response | null {
    if (closing !== null) {
      return errorResponse(
        503,
        "Service unavailable: the server is shutting down; reconnect once it has been started again",
        { retryAfterS: 5 },
      );
    }
    const { pathname } = new URL(request.url);
    if (pathname !== MCP_PATH) {
      return errorResponse(
        404,
        `Not found: ${
          JSON.stringify(pathname)
        } is not an endpoint of this server; the MCP endpoint is ${MCP_PATH}`,
      );
    }
    if (config.authToken !== null) {
      const refusal = checkBearer(request.headers.get("authorization"), config.authToken);
      if (refusal !== null) {
        return errorResponse(401, refusal, {
          headers: { "WWW-Authenticate": 'Bearer realm="yieldshell"' },
        });
      }
    }
    if (!["GET", "POST", "DELETE"].includes(request.method)) {
      return errorResponse(
        405,
        `Method not allowed: ${request.method}; POST sends JSON-RPC messages, GET opens the event stream, DELETE ends a session`,
        { headers: { Allow: "GET, POST, DELETE" } },
      );
    }
    return null;
  }

  return Object.assign(handle, {
    expireIdle: () => registry.expireIdle(),
    sessionCount: () => registry.size,
    close: () => closing ??= registry.closeAll(),
  });
}

/** A running HTTP server. */
export interface HttpServer extends AsyncDisposable {
  /** The bound address; the real port when port 0 was asked for. */
  addr: Deno.NetAddr;
  /** The MCP endpoint, such as `http://127.0.0.1:8000/mcp`. */
  url: string;
  /** Stops accepting, ends every session and closes the listener; idempotent. */
  close(): Promise<void>;
}

/**
 * Serves the MCP endpoint on `config.host:config.port` and logs its URL. Throws with the
 * `--allow-net` grant to add when Deno may not listen there.
 */
export function serveHttp(
  app: HttpApp,
  config: HttpConfig,
  logger: Logger,
  options: Pick<HttpHandlerOptions, "idleSessionMs"> = {},
): Promise<HttpServer> {
  const { idleSessionMs = IDLE_SESSION_MS } = options;
  const missing = missingNetPermission(config.host, config.port);
  if (missing !== null) return Promise.reject(new Error(missing));
  const handler = createHttpHandler({ app, config, logger, idleSessionMs });
  let server: ReturnType<typeof listenHttp1>;
  try {
    server = listenHttp1({
      hostname: config.host,
      port: config.port,
      handler,
      requestReadTimeoutMs: config.requestReadTimeoutMs,
      onError: (error) => {
        logger.error(`HTTP request failed: ${error instanceof Error ? error.stack : error}`);
        return errorResponse(
          500,
          "Internal error: the request failed; retry it, and report the server's log if it persists",
        );
      },
    });
  } catch (error) {
    const reason = errorText(error);
    return Promise.reject(
      new Error(
        `Cannot listen on ${
          urlHost(config.host)
        }:${config.port}: ${reason}; choose another --port or --host`,
      ),
    );
  }
  const addr = server.addr;
  const url = `http://${urlHost(addr.hostname)}:${addr.port}${MCP_PATH}`;
  logger.info(`listening on ${url}`);
  const sweep = setInterval(() => {
    handler.expireIdle().catch(() => {});
  }, Math.min(idleSessionMs, 60_000));
  Deno.unrefTimer(sweep);
  let closed: Promise<void> | null = null;
  const close = () =>
    closed ??= (async () => {
      clearInterval(sweep);
      const finished = server.shutdown();
      await handler.close();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        finished,
        new Promise((resolve) => timer = setTimeout(resolve, SHUTDOWN_DRAIN_MS)),
      ]);
      clearTimeout(timer);
      server.abort();
    })();
  return Promise.resolve({ addr, url, close, [Symbol.asyncDispose]: close });
}

/**
 * The problem when Deno may not listen on `host:port`, naming the `--allow-net` grant that
 * fixes it, or null. Port 0 (any free port) needs the host granted without a port.
 */
export function missingNetPermission(host: string, port: number): string | null {
  const grant = port === 0 ? urlHost(host) : `${urlHost(host)}:${port}`;
  if (Deno.permissions.querySync({ name: "net", host: grant }).state === "granted") return null;
  const args = `--transport http --port ${port}${host === "127.0.0.1" ? "" : ` --host ${host}`}`;
  return `Cannot serve HTTP on ${grant} without network permission for that address; grant it with --allow-net=${grant} (deno run -P=server --allow-net=${grant} main.ts ${args}), or rebuild a compiled binary with deno task compile --net-host ${grant}`;
}

function isCancelledNotification(message: unknown): message is CancelledNotification {
  return CancelledNotificationSchema.safeParse(message).success;
}

/** The messages of a POST body: a batch, one message, or none. */
function messagesOf(body: unknown): unknown[] {
  if (body === undefined) return [];
  return Array.isArray(body) ? body : [body];
}
