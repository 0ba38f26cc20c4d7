/** JSON-RPC error codes the HTTP layer answers with. */
export const ErrorCode = {
  /** A transport-level refusal (the SDK's choice for HTTP errors too). */
  server: -32000,
  /** The `Mcp-Session-Id` names no live session. */
  sessionNotFound: -32001,
  /** The body is not JSON. */
  parse: -32700,
} as const;

/** Options of an error response. */
export interface ErrorResponseOptions {
  /** JSON-RPC error code. @default {ErrorCode.server} */
  code?: number;
  /** Extra headers, such as `WWW-Authenticate` or `Allow`. @default {{}} */
  headers?: Record<string, string>;
  /** Seconds a client should wait before retrying; sets `Retry-After`. */
  retryAfterS?: number;
}

/** An HTTP error whose body is a JSON-RPC error object whose message says what to do next. */
export function errorResponse(
  status: number,
  message: string,
  options: ErrorResponseOptions = {},
): Response {
  const { code = ErrorCode.server, headers = {}, retryAfterS } = options;
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
  const allHeaders: Record<string, string> = { "Content-Type": "application/json", ...headers };
  if (retryAfterS !== undefined) allHeaders["Retry-After"] = String(retryAfterS);
  return new Response(body, { status, headers: allHeaders });
}

/** Headers letting a browser page at an allowed `origin` call the endpoint and read replies. */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": "Mcp-Session-Id, WWW-Authenticate, Retry-After",
    Vary: "Origin",
  };
}

/** Extra headers of the answer to a CORS preflight (`OPTIONS`). */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Methods": "GET, POST, DELETE",
  "Access-Control-Allow-Headers":
    "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID",
  "Access-Control-Max-Age": "600",
};

/** `response` with `headers` set on it (responses built with `new Response` are mutable). */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * The same response, calling `release` once its body is fully sent or the client goes away (at
 * once when there is no body): an SSE reply counts as in progress until its stream ends.
 */
export function releaseWhenDone(response: Response, release: () => void): Response {
  let released = false;
  const done = () => {
    if (released) return;
    released = true;
    release();
  };
  const source = response.body;
  if (source === null) done();
  const reader = source?.getReader();
  const body = reader === undefined ? null : new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
