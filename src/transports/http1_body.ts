import type { BodyFraming } from "./http1_head.ts";
import { type ConnReader, ReadError } from "./http1_reader.ts";

/** Longest chunk-size line, extensions included. */
const MAX_CHUNK_LINE_BYTES = 1024;
/** Most bytes of chunk extensions and trailers in one body (hyper allows 16 KiB too). */
const MAX_CHUNK_METADATA_BYTES = 16 * 1024;
const CRLF = new Uint8Array([13, 10]);

/** A request body as a stream, and whether it was read to its end. */
export interface RequestBody {
  stream: ReadableStream<Uint8Array>;
  /** True once the last byte of the body (for chunked bodies, the trailers) was read. */
  readonly complete: boolean;
}

export interface RequestBodyOptions {
  /** `performance.now()` time by which the whole body must have arrived. */
  deadlineMs: number;
  /** Called before the first read (to send `100 Continue`). */
  beforeFirstRead?: () => Promise<void>;
}

/**
 * Streams a request body off the connection, decoding chunked framing, delivering every byte as
 * it arrives. The stream errors with a `ReadError` when the client is too slow, closes early or
 * breaks the framing.
 */
export function readRequestBody(
  reader: ConnReader,
  framing: Exclude<BodyFraming, { kind: "none" }>,
  options: RequestBodyOptions,
): RequestBody {
  const { deadlineMs } = options;
  let beforeFirstRead = options.beforeFirstRead;
  const decoder = framing.kind === "chunked"
    ? new ChunkedDecoder()
    : new LengthDecoder(framing.bytes);
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await beforeFirstRead?.();
      beforeFirstRead = undefined;
      for (;;) {
        const next = decoder.next(reader);
        if (next === "more") {
          if (!(await reader.fill(deadlineMs))) {
            throw new ReadError("closed", "the client closed the connection before the body ended");
          }
          continue;
        }
        if (next === null) controller.close();
        else controller.enqueue(next);
        return;
      }
    },
  }, { highWaterMark: 0 });
  return {
    stream,
    get complete() {
      return decoder.complete;
    },
  };
}

/** One step of decoding: body bytes, null at the end of the body, or "more" bytes needed. */
type Step = Uint8Array | null | "more";

interface Decoder {
  readonly complete: boolean;
  next(reader: ConnReader): Step;
}

class LengthDecoder implements Decoder {
  #remaining: number;

  constructor(bytes: number) {
    this.#remaining = bytes;
  }

  get complete(): boolean {
    return this.#remaining === 0;
  }

  next(reader: ConnReader): Step {
    if (this.#remaining === 0) return null;
    if (reader.buffered === 0) return "more";
    const data = reader.take(this.#remaining);
    this.#remaining -= data.byteLength;
    return data;
  }
}

/** RFC 9112 chunked transfer coding; extensions and trailers are read and ignored. */
class ChunkedDecoder implements Decoder {
  #state: "size" | "data" | "data-end" | "trailers" | "done" = "size";
  #remaining = 0;
  #metadataBytes = 0;

  get complete(): boolean {
    return this.#state === "done";
  }

  next(reader: ConnReader): Step {
    for (;;) {
      switch (this.#state) {
        case "done":
          return null;
        case "data": {
          if (reader.buffered === 0) return "more";
          const data = reader.take(this.#remaining);
          this.#remaining -= data.byteLength;
          if (this.#remaining === 0) this.#state = "data-end";
          return data;
        }
        case "data-end": {
          if (reader.buffered < 2) return "more";
          const end = reader.take(2);
          if (end[0] !== 13 || end[1] !== 10) throw malformed("a chunk does not end with CRLF");
          this.#state = "size";
          break;
        }
        case "size": {
          const line = this.#line(reader);
          if (line === null) return "more";
          this.#startChunk(line);
          break;
        }
        case "trailers": {
          const line = this.#line(reader);
          if (line === null) return "more";
          if (line === "") this.#state = "done";
          break;
        }
      }
    }
  }

  /** The next CRLF-terminated line (without CRLF), or null until it has fully arrived. */
  #line(reader: ConnReader): string | null {
    const end = reader.indexOf(CRLF);
    if (end === -1) {
      if (reader.buffered > MAX_CHUNK_LINE_BYTES) throw malformed("a chunk line is too long");
      return null;
    }
    if (end > MAX_CHUNK_LINE_BYTES) throw malformed("a chunk line is too long");
    const line = new TextDecoder("latin1").decode(reader.take(end + 2).subarray(0, end));
    this.#metadataBytes += line.length;
    if (this.#metadataBytes > MAX_CHUNK_METADATA_BYTES) {
      throw malformed("chunk extensions and trailers exceed 16 KiB");
    }
    return line;
  }

  #startChunk(line: string): void {
    const match = /^([0-9a-fA-F]{1,12})[ \t]*(;.*)?$/.exec(line);
    if (match === null) throw malformed(`${JSON.stringify(line.slice(0, 40))} is not a chunk size`);
    const size = parseInt(match[1], 16);
    // Extensions count towards the metadata limit; the size digits do not.
    this.#metadataBytes -= match[1].length;
    this.#remaining = size;
    this.#state = size === 0 ? "trailers" : "data";
  }
}

function malformed(reason: string): ReadError {
  return new ReadError("malformed", `the chunked body is malformed: ${reason}`);
}
