import { errorResponse } from "./http_response.ts";
import { checkBearer } from "./http_security.ts";

/** The MCP endpoint's path. */
export const MCP_PATH = "/mcp";

/**
 * The checks after DNS-rebinding protection: closing, path, bearer token and method. Paths
 * other than /mcp answer 404 even without the token: there is nothing there to protect, and
 * an MCP client probing /.well-known/oauth-* for OAuth must learn that there is no OAuth here
 * (404) rather than be told to authenticate (401), so that it falls back to its configured
 * Authorization header.
 */
export function screenRequest(
  request: Request,
  authToken: string | null,
  closing: boolean,
): Response | null {
  if (closing) {
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
  if (authToken !== null) {
    const refusal = checkBearer(request.headers.get("authorization"), authToken);
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
