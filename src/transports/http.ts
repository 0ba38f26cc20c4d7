import { errorText } from "../contract/error_text.ts";
import type { Logger } from "../logger.ts";
import {
  createHttpHandler,
  type HttpApp,
  type HttpConfig,
  type HttpHandlerOptions,
  IDLE_SESSION_MS,
} from "./http_handler.ts";
import { errorResponse } from "./http_response.ts";
import { MCP_PATH } from "./http_screen.ts";
import { urlHost } from "./http_security.ts";
import { listenHttp1 } from "./http1_server.ts";

/** Upper bound on waiting for the listener to drain at shutdown. */
const SHUTDOWN_DRAIN_MS = 5_000;

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
