import type { ShellExit } from "../../core/process.ts";

/**
 * Decodes a `waitpid` status word (the same encoding on Linux and macOS) into the contract's
 * convention: the exit code, or `-N` with the signal's name for a death by signal N.
 */
export function decodeWaitStatus(
  status: number,
  signals: Readonly<Record<string, number>>,
): ShellExit {
  const termination = status & 0x7f;
  if (termination === 0) return { exitCode: (status >> 8) & 0xff, signal: null };
  const name = Object.entries(signals).find(([, number]) => number === termination)?.[0];
  return { exitCode: -termination, signal: name ?? `SIG${termination}` };
}
