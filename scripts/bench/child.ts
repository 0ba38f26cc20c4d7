/**
 * Ends a child the bench talks to over stdin: closes stdin, waits for the exit (running
 * `whileWaiting` meanwhile, e.g. to release a reader), and SIGKILLs it after `killAfterMs`.
 */
export async function closeChild(
  child: Deno.ChildProcess,
  writer: WritableStreamDefaultWriter<Uint8Array>,
  options: { killAfterMs: number; whileWaiting?: () => Promise<unknown> },
): Promise<void> {
  await writer.close().catch(() => {});
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, options.killAfterMs);
  try {
    await options.whileWaiting?.();
    await child.status;
  } finally {
    clearTimeout(timer);
  }
}
