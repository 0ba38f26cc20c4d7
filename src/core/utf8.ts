/** Most continuation bytes one UTF-8 character can have. */
const MAX_CONTINUATION_BYTES = 3;

/** Whether `byte` is a UTF-8 continuation byte (`10xxxxxx`). */
export function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Length of the sequence a UTF-8 lead byte announces: 1 for ASCII, continuation and invalid bytes. */
export function utf8SequenceLength(leadByte: number): number {
  if (leadByte < 0xc0) return 1;
  if (leadByte < 0xe0) return 2;
  if (leadByte < 0xf0) return 3;
  if (leadByte < 0xf8) return 4;
  return 1;
}

/** Length of the character at `offset`: 1 to 4 bytes, or 1 for a byte that starts no complete character. */
export function utf8CharLengthAt(bytes: Uint8Array, offset: number): number {
  const length = utf8SequenceLength(bytes[offset]);
  if (offset + length > bytes.length) return 1;
  for (let i = offset + 1; i < offset + length; i++) {
    if (!isContinuationByte(bytes[i])) return 1;
  }
  return length;
}

/** Length of the longest prefix of `bytes` no longer than `limit` that does not end inside an incomplete character. */
export function utf8SafePrefixLength(bytes: Uint8Array, limit: number): number {
  const end = Math.max(0, Math.min(limit, bytes.length));
  const lowest = Math.max(0, end - 1 - MAX_CONTINUATION_BYTES);
  for (let i = end - 1; i >= lowest; i--) {
    if (!isContinuationByte(bytes[i])) {
      return i + utf8SequenceLength(bytes[i]) > end ? i : end;
    }
  }
  return end;
}

/** Offset of the first byte at or after `offset` that is not a continuation byte, skipping at most 3. */
export function skipContinuationBytes(bytes: Uint8Array, offset: number): number {
  const limit = Math.min(bytes.length, offset + MAX_CONTINUATION_BYTES);
  let index = offset;
  while (index < limit && isContinuationByte(bytes[index])) index++;
  return index;
}

/** Line feeds in `bytes`, four bytes at a time (the capture path counts every spooled byte). */
export function countLineFeeds(bytes: Uint8Array): number {
  const length = bytes.length;
  let count = 0;
  let index = 0;
  const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
  for (; index < head; index++) if (bytes[index] === 0x0a) count++;
  const words = (length - index) >>> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + index, words);
    for (let word = 0; word < words; word++) {
      // Bytes equal to 0x0a become zero; each zero byte sets its top bit in `zero`, exactly.
      const x = view[word] ^ 0x0a0a0a0a;
      const zero = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
      count += Math.imul(zero >>> 7, 0x01010101) >>> 24;
    }
    index += words * 4;
  }
  for (; index < length; index++) if (bytes[index] === 0x0a) count++;
  return count;
}

/** Streams raw output into valid UTF-8: invalid bytes become U+FFFD, split characters wait for their rest. */
export class Utf8Normalizer {
  // ignoreBOM keeps a leading BOM as output, so positions count every byte the process wrote.
  #decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  #encoder = new TextEncoder();

  // True when the last chunk ended in a non-ASCII byte, so the decoder may hold part of a char.
  #mayHold = false;

  /** Normalizes one chunk, returning the complete characters so far (possibly none). */
  push(chunk: Uint8Array): Uint8Array {
    // Fast path: ASCII is valid UTF-8 as it stands, so it needs no decode and re-encode.
    if (!this.#mayHold && isAscii(chunk)) return chunk;
    // An empty chunk changes nothing the decoder holds.
    if (chunk.length > 0) this.#mayHold = chunk[chunk.length - 1] >= 0x80;
    return this.#encoder.encode(this.#decoder.decode(chunk, { stream: true }));
  }

  /** Ends the stream, returning any held bytes; an incomplete final character becomes U+FFFD. */
  flush(): Uint8Array {
    return this.#encoder.encode(this.#decoder.decode());
  }
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) return false;
  return true;
}
