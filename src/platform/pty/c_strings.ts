const encoder = new TextEncoder();

/** `text` as a NUL-terminated C string; refuses text that already holds a NUL. */
export function cString(text: string, what: string): Uint8Array<ArrayBuffer> {
  if (text.includes("\0")) {
    throw new Error(`Cannot pass ${what} to the terminal's program as it contains a NUL byte`);
  }
  return encoder.encode(`${text}\0`);
}

/**
 * A NULL-terminated array of pointers to `strings` (argv, envp). The caller keeps `strings`
 * referenced until the C call returns, so the memory the pointers name stays alive.
 */
export function pointerArray(strings: readonly Uint8Array<ArrayBuffer>[]): Uint8Array {
  const pointers = new BigUint64Array(strings.length + 1);
  strings.forEach((string, index) => {
    pointers[index] = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(string)));
  });
  return new Uint8Array(pointers.buffer);
}
