import { ReadError } from "./http1_reader.ts";

/** Largest request body the HTTP transport reads: 4 MiB. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request body read under a size limit. */
export type BodyReading =
  | { kind: "text"; text: string }
  | { kind: "too-large" }
  /** The client was too slow, went away or broke the framing before the body ended. */
  | { kind: "unreadable"; timedOut: boolean; reason: string };

/**
 * Reads a request body as UTF-8 text, refusing a declared `Content-Length` over `maxBytes`
 * without reading, and stopping (and cancelling the stream) as soon as a body without a
 * length, such as a chunked one, passes the limit. A body that cannot be read to its end is
 * reported, never thrown: past the limit it is too large whatever happens next.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<BodyReading> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return { kind: "too-large" };
  }
  if (request.body === null) return { kind: "text", text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  while (true) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      return unreadable(error);
    }
    if (chunk.done) break;
    received += chunk.value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      return { kind: "too-large" };
    }
    chunks.push(chunk.value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: "text", text: new TextDecoder().decode(bytes) };
}

function unreadable(error: unknown): BodyReading {
  if (error instanceof ReadError) {
    return { kind: "unreadable", timedOut: error.kind === "timeout", reason: error.message };
  }
  return { kind: "unreadable", timedOut: false, reason: "the connection failed" };
}
