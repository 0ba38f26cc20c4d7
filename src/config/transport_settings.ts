import type { Settings } from "./setting.ts";
import {
  authToken,
  GENERATE_TOKEN,
  MAX_REQUEST_READ_TIMEOUT_MS,
  MIN_AUTH_TOKEN_LENGTH,
} from "./http_value_schemas.ts";
import { origin, positiveInteger } from "./value_schemas.ts";

/** How clients connect: the transport, the HTTP address, its token and limits. */
export const TRANSPORT_SETTINGS: Pick<
  Settings,
  | "transport"
  | "host"
  | "port"
  | "authToken"
  | "allowedOrigins"
  | "maxHttpSessions"
  | "maxConcurrentRequests"
  | "requestReadTimeoutMs"
> = {
  transport: {
    fileKey: "transport",
    env: "YIELDSHELL_TRANSPORT",
    flag: "transport",
    valueName: "stdio|http",
    schema: (z) =>
      z.enum(["stdio", "http", "streamable-http"]).transform((name) =>
        name === "streamable-http" ? "http" : name
      ),
    expected: 'stdio or http ("streamable-http" also means http)',
    default: () => "stdio",
    description:
      "How MCP clients connect: stdio, or streamable HTTP on host and port at the path /mcp.",
  },
  host: {
    fileKey: "host",
    env: "YIELDSHELL_HOST",
    flag: "host",
    valueName: "address",
    schema: (z) => z.string().regex(/^\S+$/),
    expected: "a host name or IP address",
    default: () => "127.0.0.1",
    description:
      "Address the HTTP transport binds. Anything but a loopback address (127.0.0.0/8, ::1, localhost) requires auth_token.",
  },
  port: {
    fileKey: "port",
    env: "YIELDSHELL_PORT",
    flag: "port",
    valueName: "port",
    form: "integer",
    schema: (z) => z.int().min(0).max(65_535),
    expected: "an integer from 0 to 65535",
    default: () => 8000,
    description: "Port of the HTTP transport; 0 picks a free port.",
  },
  authToken: {
    fileKey: "auth_token",
    env: "YIELDSHELL_AUTH_TOKEN",
    flag: "auth-token",
    valueName: "token",
    schema: authToken,
    expected: `a string of at least ${MIN_AUTH_TOKEN_LENGTH} printable ASCII characters`,
    default: () => null,
    description:
      `Bearer token every HTTP request must carry; empty means none. At least ${MIN_AUTH_TOKEN_LENGTH} printable ASCII characters (${GENERATE_TOKEN}). Prefer the variable or the file: other users can see command lines. Commands never see YIELDSHELL_AUTH_TOKEN, and the token is redacted from their output.`,
  },
  allowedOrigins: {
    fileKey: "allowed_origins",
    env: "YIELDSHELL_ALLOWED_ORIGINS",
    flag: "allowed-origin",
    valueName: "origin",
    form: "commaList",
    schema: (z) => z.array(origin(z)),
    expected: "origins such as https://example.com:8443 (scheme, host and port only)",
    default: () => [],
    description:
      "Browser origins allowed to call the HTTP transport besides loopback ones. The flag repeats; the variable is comma-separated.",
  },
  maxHttpSessions: {
    fileKey: "max_http_sessions",
    env: "YIELDSHELL_MAX_HTTP_SESSIONS",
    flag: "max-http-sessions",
    valueName: "n",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 64,
    description: "Most concurrent HTTP MCP sessions.",
  },
  maxConcurrentRequests: {
    fileKey: "max_concurrent_requests",
    env: "YIELDSHELL_MAX_CONCURRENT_REQUESTS",
    flag: "max-concurrent-requests",
    valueName: "n",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 128,
    description:
      "Most JSON-RPC requests handled at once over HTTP (each entry of a batch counts), and most request bodies read at once.",
  },
  requestReadTimeoutMs: {
    fileKey: "request_read_timeout_ms",
    env: "YIELDSHELL_REQUEST_READ_TIMEOUT_MS",
    flag: "request-read-timeout-ms",
    valueName: "ms",
    form: "integer",
    schema: (z) => z.int().min(1).max(MAX_REQUEST_READ_TIMEOUT_MS),
    expected: `an integer from 1 to ${MAX_REQUEST_READ_TIMEOUT_MS} (one day)`,
    default: () => 30_000,
    description:
      "Longest time an HTTP client may take to send one request, headers and body; a slower request gets 408 and its connection is closed, so slow clients cannot hold request slots.",
  },
};
