import type { Execution } from "./execution.ts";

/** Retention settings of the contract. */
export interface RetentionLimits {
  /** Age after which terminal records are removed; 0 removes them at once. */
  processRetentionMs: number;
  /** Most terminal records kept after age-based removal. */
  maxRetainedProcesses: number;
}

/** Age in milliseconds of a terminal record at `nowS` (epoch seconds). */
export function ageMs(execution: Execution, nowS: number): number {
  return (nowS - (execution.endedAt ?? execution.startedAt)) * 1000;
}

/**
 * The terminal records retention removes: those older than the retention age, then the oldest
 * beyond the count limit. Running records are never chosen.
 */
export function expiredRecords(
  records: Iterable<Execution>,
  limits: RetentionLimits,
  nowS: number,
): Execution[] {
  const { processRetentionMs, maxRetainedProcesses } = limits;
  const expired: Execution[] = [];
  const kept: Execution[] = [];
  for (const execution of records) {
    if (execution.live) continue;
    const old = processRetentionMs === 0 || ageMs(execution, nowS) > processRetentionMs;
    (old ? expired : kept).push(execution);
  }
  const excess = kept.length - maxRetainedProcesses;
  if (excess <= 0) return expired;
  kept.sort((a, b) =>
    (a.endedAt ?? a.startedAt) - (b.endedAt ?? b.startedAt) || a.startedAt - b.startedAt ||
    (a.id < b.id ? -1 : 1)
  );
  return [...expired, ...kept.slice(0, excess)];
}

/** Age thresholds of `cleanup`, per kind of terminal record. */
export interface CleanupThresholds {
  completedMs: number;
  stoppedMs: number;
}

/** Default age thresholds of `cleanup`: one hour. */
const CLEANUP_DEFAULT_MS = 3_600_000;

/** `cleanup`'s thresholds, defaults filled in; null when one is negative. */
export function cleanupThresholds(
  args: { completed_older_than_ms?: number | null; stopped_older_than_ms?: number | null },
): CleanupThresholds | null {
  const completedMs = args.completed_older_than_ms ?? CLEANUP_DEFAULT_MS;
  const stoppedMs = args.stopped_older_than_ms ?? CLEANUP_DEFAULT_MS;
  return completedMs < 0 || stoppedMs < 0 ? null : { completedMs, stoppedMs };
}

/** The terminal records of `owner` that `cleanup` removes. */
export function cleanupRecords(
  records: Iterable<Execution>,
  owner: string,
  thresholds: CleanupThresholds,
  nowS: number,
): Execution[] {
  return [...records].filter((execution) => {
    if (execution.owner !== owner || execution.live) return false;
    const threshold = execution.status === "completed"
      ? thresholds.completedMs
      : thresholds.stoppedMs;
    return ageMs(execution, nowS) > threshold;
  });
}
