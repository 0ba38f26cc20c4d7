/** Memory figures of one process from `/proc/<pid>/status`, in bytes. */
export interface ProcMemory {
  /** Resident set size now (`VmRSS`). */
  rssBytes: number;
  /** Peak resident set size (`VmHWM`). */
  hwmBytes: number;
}

/** Reads `VmRSS` and `VmHWM` of `pid` (Linux; the bench runs with -P=test, which may read /proc). */
export function procMemory(pid: number): ProcMemory {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, "m").exec(status);
    if (match === null) throw new Error(`Cannot read ${name} of pid ${pid}: not in /proc status`);
    return Number(match[1]) * 1024;
  };
  return { rssBytes: field("VmRSS"), hwmBytes: field("VmHWM") };
}

/** Median `VmRSS` of `samples` readings `intervalMs` apart, after the process settled. */
export async function settledRss(pid: number, samples = 5, intervalMs = 100): Promise<number> {
  const readings: number[] = [];
  for (let index = 0; index < samples; index++) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
    readings.push(procMemory(pid).rssBytes);
  }
  readings.sort((a, b) => a - b);
  return readings[readings.length >> 1];
}

/** Bytes as decimal megabytes. */
export function toMb(bytes: number): number {
  return bytes / 1_000_000;
}
