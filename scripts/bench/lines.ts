/** Yields the lines of a byte stream, without their line feeds. */
export async function* readLines(readable: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let pending = "";
  for await (const text of readable.pipeThrough(new TextDecoderStream())) {
    pending += text;
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      yield pending.slice(0, newline);
      pending = pending.slice(newline + 1);
    }
  }
  if (pending !== "") yield pending;
}
