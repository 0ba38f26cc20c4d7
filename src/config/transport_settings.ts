import { z } from "zod";
import type { Settings } from "./setting.ts";
import { optionalText, origin, positiveInteger } from "./value_schemas.ts";

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
> = {
  transport: {
    fileKey: "transport",
    env: "YIELDSHELL_TRANSPORT",
    flag: "transport",
    valueName: "stdio|http",
    schema: z.enum(["stdio", "http", "streamable-http"]).transform((name) =>
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
    schema: z.string().regex(/^\S+$/),
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
    schema: z.int().min(0).max(65_535),
    expected: "an integer from 0 to 65535",
    default: () => 8000,
    description: "Port of the HTTP transport; 0 picks a free port.",
  },
  authToken: {
    fileKey: "auth_token",
    env: "YIELDSHELL_AUTH_TOKEN",
    flag: "auth-token",
    valueName: "token",
    schema: optionalText,
    expected: "a string",
    default: () => null,
    description:
      "Bearer token every HTTP request must carry; empty means none. Prefer the variable or the file: other users can see command lines.",
  },
  allowedOrigins: {
    fileKey: "allowed_origins",
    env: "YIELDSHELL_ALLOWED_ORIGINS",
    flag: "allowed-origin",
    valueName: "origin",
    form: "commaList",
    schema: z.array(origin),
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
    description: "Most HTTP requests handled at once.",
  },
};
