/** Middle value of `samples` (mean of the two middle ones for an even count). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new RangeError("Cannot take a median of no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Nearest-rank percentile of `samples`, `fraction` in (0, 1]. */
export function percentile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) throw new RangeError("Cannot take a percentile of no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

/** Milliseconds since the epoch with sub-millisecond precision (monotonic within one run). */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
