/**
 * Runs `fn` with the event loop held open: the guardian's pipes are unref'd so that it never
 * keeps a server alive, and a test has no stdin or listener that would.
 */
export async function holdingLoop(fn: () => Promise<void>): Promise<void> {
  const hold = setInterval(() => {}, 60_000);
  try {
    await fn();
  } finally {
    clearInterval(hold);
  }
}
