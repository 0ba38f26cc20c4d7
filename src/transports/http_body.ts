/** Largest request body the HTTP transport reads: 4 MiB. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request body read under a size limit. */
export type BodyReading = { tooLarge: false; text: string } | { tooLarge: true };

/**
 * Reads a request body as UTF-8 text, refusing a declared `Content-Length` over `maxBytes`
 * without reading, and stopping (and cancelling the stream) as soon as a body without a
 * length, such as a chunked one, passes the limit.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<BodyReading> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return { tooLarge: true };
  }
  if (request.body === null) return { tooLarge: false, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { tooLarge: false, text: new TextDecoder().decode(bytes) };
}
