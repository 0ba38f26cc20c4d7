/** A pipe's first reads are small: most commands print little, and a pending read holds its buffer. */
const FIRST_READ_BYTES = 4096;
/** Once a read fills its buffer, output is flowing: read in larger chunks. */
const FLOWING_READ_BYTES = 65_536;

/**
 * The chunks of a stream, each an exact-size copy the caller owns. A byte stream (a pipe) is
 * read into one reusable buffer that starts small; a plain stream is read as it comes. Reading
 * a pipe's default reader instead allocates 64 KiB per read, and a short chunk kept in the
 * log would pin all of it for as long as the record lives.
 */
export class ChunkReader {
  #byob: ReadableStreamBYOBReader | null = null;
  #plain: ReadableStreamDefaultReader<Uint8Array> | null = null;
  #buffer: ArrayBuffer | null = null;

  constructor(readable: ReadableStream<Uint8Array>) {
    try {
      this.#byob = readable.getReader({ mode: "byob" });
      this.#buffer = new ArrayBuffer(FIRST_READ_BYTES);
    } catch {
      // Not a byte stream (a test's fake process): its chunks are the caller's already.
      this.#plain = readable.getReader();
    }
  }

  /** The next chunk, or null at the end of the stream. */
  async read(): Promise<Uint8Array | null> {
    if (this.#plain !== null) {
      const { value, done } = await this.#plain.read();
      return done ? null : value;
    }
    const { value, done } = await this.#byob!.read(new Uint8Array(this.#buffer!));
    if (value === undefined) return null;
    // The read transferred the buffer into `value`; keep it for the next read.
    this.#buffer = value.buffer as ArrayBuffer;
    if (
      value.byteLength === this.#buffer.byteLength && this.#buffer.byteLength < FLOWING_READ_BYTES
    ) {
      this.#buffer = new ArrayBuffer(FLOWING_READ_BYTES);
    }
    if (done) return null;
    return value.slice();
  }

  /** Stops reading; a pending read resolves as the end of the stream. */
  cancel(): Promise<void> {
    return (this.#byob ?? this.#plain)!.cancel();
  }
}
