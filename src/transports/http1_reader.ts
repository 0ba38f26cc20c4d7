/** Why reading from a connection stopped short. */
export type ReadFailure = "timeout" | "closed" | "malformed" | "too-large";

/** A read from the client that cannot complete; `kind` says why. */
export class ReadError extends Error {
  override name = "ReadError";
  constructor(readonly kind: ReadFailure, message: string) {
    super(message);
  }
}

/** What `ConnReader` reads from: `Deno.Conn` fits. */
export interface ByteSource {
  /** Reads into `buffer`; the byte count, or null at end of input. */
  read(buffer: Uint8Array): Promise<number | null>;
}

/** Bytes asked of the socket per read. */
const READ_BYTES = 64 * 1024;

/**
 * Buffered reads from a connection with deadlines. One read of the socket is in flight at a
 * time, shared by every waiter, so a watcher for the client going away and the next request's
 * reader never split or duplicate bytes.
 */
export class ConnReader {
  #source: ByteSource;
  #scratch = new Uint8Array(READ_BYTES);
  #buffer = new Uint8Array(0);
  #filling: Promise<boolean> | null = null;
  #ended = false;

  // Not conn.readable: that stream closes the whole connection at end of input, and a client
  // that half-closes after its request must still get the answer.
  constructor(source: ByteSource) {
    this.#source = source;
  }

  /** Bytes received and not consumed yet. */
  get buffered(): number {
    return this.#buffer.byteLength;
  }

  /** Whether the client closed its side (or the connection broke). */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Waits for more bytes until `deadlineMs` (a `performance.now()` time; Infinity waits as long
   * as it takes). Returns false once the client has closed its side; throws a timeout
   * `ReadError` at the deadline.
   */
  async fill(deadlineMs: number): Promise<boolean> {
    if (this.#ended) return false;
    const filled = this.#filling ??= this.#fillOnce();
    if (deadlineMs === Infinity) return await filled;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ReadError("timeout", "the client was too slow")),
        Math.max(0, deadlineMs - performance.now()),
      );
    });
    try {
      return await Promise.race([filled, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Index of `pattern` in the buffer at or after `from`, or -1. */
  indexOf(pattern: Uint8Array, from = 0): number {
    const buffer = this.#buffer;
    outer: for (let i = from; i <= buffer.byteLength - pattern.byteLength; i++) {
      for (let j = 0; j < pattern.byteLength; j++) {
        if (buffer[i + j] !== pattern[j]) continue outer;
      }
      return i;
    }
    return -1;
  }

  /** The first `byteCount` buffered bytes (at most what is buffered), removed from the buffer. */
  take(byteCount: number): Uint8Array {
    const taken = this.#buffer.subarray(0, Math.min(byteCount, this.#buffer.byteLength));
    this.#buffer = this.#buffer.subarray(taken.byteLength);
    return taken;
  }

  /** Discards everything the client sends until it closes or `deadlineMs` passes. */
  async drain(deadlineMs: number): Promise<void> {
    try {
      do this.take(Infinity); while (await this.fill(deadlineMs));
    } catch {
      // The deadline passed: the connection is closed regardless.
    }
  }

  /** Stops reading; a pending read settles once the connection is closed. */
  release(): void {
    this.#ended = true;
  }

  async #fillOnce(): Promise<boolean> {
    try {
      const count = await this.#source.read(this.#scratch);
      if (count === null) {
        this.#ended = true;
        return false;
      }
      const value = this.#scratch.subarray(0, count);
      const joined = new Uint8Array(this.#buffer.byteLength + value.byteLength);
      joined.set(this.#buffer);
      joined.set(value, this.#buffer.byteLength);
      this.#buffer = joined;
      return true;
    } catch {
      // A reset counts as the client going away.
      this.#ended = true;
      return false;
    } finally {
      this.#filling = null;
    }
  }
}
