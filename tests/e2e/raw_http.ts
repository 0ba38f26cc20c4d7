/**
 * HTTP/1.1 over a raw loopback socket, for what fetch cannot do: slow or broken bodies, odd
 * framing, pipelining, and reading the answer while the body is still being sent.
 */

const encoder = new TextEncoder();

/** A parsed HTTP response (chunked bodies decoded). */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
  /** The response as received, as text. */
  text: string;
}

/** Writes every byte of `data`, or throws when the server has closed. */
export async function writeAll(conn: Deno.Conn, data: Uint8Array | string): Promise<void> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  let offset = 0;
  while (offset < bytes.byteLength) offset += await conn.write(bytes.subarray(offset));
}

/** The head of a request to `/mcp` on a loopback server. */
export function requestHead(method: string, headers: Record<string, string> = {}): string {
  const lines = [`${method} /mcp HTTP/1.1`, "Host: 127.0.0.1"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

export interface ReadResponseOptions {
  /** @default {20_000} */
  timeoutMs?: number;
  /** The request was HEAD: the response has no body whatever its headers say. */
  headOnly?: boolean;
}

/** Bytes received past one response (pipelined answers), kept for the next read. */
const leftovers = new WeakMap<Deno.Conn, string>();

/**
 * Reads one response from `conn`: up to the end of its body when it has a length or chunked
 * framing, else to end of stream. Null when the connection ends before a complete response;
 * rejects after `timeoutMs` without one.
 */
export async function readResponse(
  conn: Deno.Conn,
  options: ReadResponseOptions = {},
): Promise<RawResponse | null> {
  const { timeoutMs = 20_000, headOnly = false } = options;
  const buffer = new Uint8Array(64 * 1024);
  let received = leftovers.get(conn) ?? "";
  leftovers.delete(conn);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No response within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    for (;;) {
      const parsed = parseResponse(received, false, headOnly);
      if (parsed !== null) {
        if (parsed.rest !== "") leftovers.set(conn, parsed.rest);
        return parsed.response;
      }
      let count: number | null;
      try {
        count = await Promise.race([conn.read(buffer), expired]);
      } catch (error) {
        if (error instanceof Deno.errors.ConnectionReset) count = null;
        else throw error;
      }
      if (count === null) return parseResponse(received, true, headOnly)?.response ?? null;
      received += new TextDecoder("latin1").decode(buffer.subarray(0, count));
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The response at the start of `text` once complete, and what follows it; null until then.
 * `ended` means no more bytes will come.
 */
function parseResponse(
  text: string,
  ended: boolean,
  headOnly: boolean,
): { response: RawResponse; rest: string } | null {
  const headEnd = text.indexOf("\r\n\r\n");
  if (headEnd === -1) return null;
  const [statusLine, ...fields] = text.slice(0, headEnd).split("\r\n");
  const headers = new Headers(fields.map((field) => {
    const colon = field.indexOf(":");
    return [field.slice(0, colon), field.slice(colon + 1).trim()] as [string, string];
  }));
  const rest = text.slice(headEnd + 4);
  let body: { text: string; wireLength: number } | null;
  if (headOnly) body = { text: "", wireLength: 0 };
  else if (headers.get("transfer-encoding") === "chunked") body = dechunk(rest);
  else if (headers.has("content-length")) {
    const length = Number(headers.get("content-length"));
    body = rest.length >= length ? { text: rest.slice(0, length), wireLength: length } : null;
  } else body = ended ? { text: rest, wireLength: rest.length } : null;
  if (body === null) return null;
  const end = headEnd + 4 + body.wireLength;
  return {
    response: {
      status: Number(statusLine.split(" ")[1]),
      headers,
      body: body.text,
      text: text.slice(0, end),
    },
    rest: text.slice(end),
  };
}

/** A decoded chunked body and its length on the wire, or null while it has not all arrived. */
function dechunk(text: string): { text: string; wireLength: number } | null {
  let body = "";
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf("\r\n", at);
    if (lineEnd === -1) return null;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (size === 0) {
      // The last chunk, then trailers (none here) and an empty line.
      const end = text.indexOf("\r\n", lineEnd + 2);
      return end === -1 ? null : { text: body, wireLength: end + 2 };
    }
    if (text.length < lineEnd + 2 + size + 2) return null;
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}
