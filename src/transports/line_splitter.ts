/**
 * Splits a byte stream into lines at `\n` (a trailing `\r` dropped), decoding each as UTF-8,
 * whatever the chunk boundaries. A line longer than `maxLineBytes` is reported and skipped.
 */
export class LineSplitter {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #skipping = false;
  #maxLineBytes: number;
  #decoder = new TextDecoder();

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Feeds bytes; calls `onLine` for each complete line and `onTooLong` for each skipped one. */
  push(chunk: Uint8Array, onLine: (line: string) => void, onTooLong: () => void): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) {
        this.#keep(chunk.subarray(start), onTooLong);
        return;
      }
      const part = chunk.subarray(start, end);
      start = end + 1;
      if (this.#skipping) {
        this.#skipping = false;
        continue;
      }
      if (this.#pendingBytes + part.length > this.#maxLineBytes) {
        this.#drop();
        onTooLong();
        continue;
      }
      const line = this.#pending.length === 0 ? part : this.#joined(part);
      const text = this.#decoder.decode(line);
      onLine(text.endsWith("\r") ? text.slice(0, -1) : text);
    }
  }

  #keep(part: Uint8Array, onTooLong: () => void): void {
    if (this.#skipping || part.length === 0) return;
    if (this.#pendingBytes + part.length > this.#maxLineBytes) {
      this.#drop();
      this.#skipping = true;
      onTooLong();
      return;
    }
    // A copy: the caller reuses its read buffer.
    this.#pending.push(part.slice());
    this.#pendingBytes += part.length;
  }

  #joined(last: Uint8Array): Uint8Array {
    const line = new Uint8Array(this.#pendingBytes + last.length);
    let offset = 0;
    for (const part of this.#pending) {
      line.set(part, offset);
      offset += part.length;
    }
    line.set(last, offset);
    this.#drop();
    return line;
  }

  #drop(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }
}
