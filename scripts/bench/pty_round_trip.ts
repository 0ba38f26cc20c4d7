import { currentPtyBackend } from "../../src/platform/mod.ts";
import { median, percentile } from "./stats.ts";
import type { SectionResult } from "./table.ts";

const CALLS = 200;
const WARMUP_CALLS = 10;
/** Issue 17: a PTY spawn round trip within 3 ms of the pipe round trip. */
const TARGET_EXTRA_MS = 3;
const COMMAND = "echo hello";

/**
 * `echo hello` on a pseudo-terminal (open, spawn, read to the end, reap, close) against the
 * same command through pipes with `Deno.Command`, interleaved in one run.
 */
export async function benchPtyRoundTrip(): Promise<SectionResult> {
  const backend = currentPtyBackend();
  const unavailable = backend.unavailable();
  if (unavailable !== null) return { rows: [], notes: [], skipped: unavailable };
  const env = { PATH: "/usr/local/bin:/usr/bin:/bin" };
  const overPty = async (): Promise<number> => {
    const started = performance.now();
    const pty = backend.spawn({
      shell: "/bin/sh",
      command: COMMAND,
      cwd: "/",
      env,
      cols: 120,
      rows: 40,
    });
    const output = await new Response(pty.output).text();
    await pty.exited;
    await pty.close();
    const elapsed = performance.now() - started;
    if (output !== "hello\r\n") throw new Error(`${COMMAND} on a terminal printed ${output}`);
    return elapsed;
  };
  const overPipes = async (): Promise<number> => {
    const started = performance.now();
    const result = await new Deno.Command("/bin/sh", { args: ["-c", COMMAND], env }).output();
    const elapsed = performance.now() - started;
    if (new TextDecoder().decode(result.stdout) !== "hello\n") {
      throw new Error(`${COMMAND} through pipes printed something else`);
    }
    return elapsed;
  };
  for (let call = 0; call < WARMUP_CALLS; call++) {
    await overPty();
    await overPipes();
  }
  const ptyMs: number[] = [];
  const pipeMs: number[] = [];
  for (let call = 0; call < CALLS; call++) {
    if (call % 2 === 0) {
      ptyMs.push(await overPty());
      pipeMs.push(await overPipes());
    } else {
      pipeMs.push(await overPipes());
      ptyMs.push(await overPty());
    }
  }
  const ptyP50 = median(ptyMs);
  const pipeP50 = median(pipeMs);
  return {
    rows: [
      {
        figure: "PTY spawn round trip p50 (`echo hello`)",
        ours: ptyP50,
        baseline: pipeP50,
        unit: "ms",
        target: `≤ baseline + ${TARGET_EXTRA_MS} ms`,
        met: ptyP50 - pipeP50 <= TARGET_EXTRA_MS,
      },
      {
        figure: "PTY spawn round trip p95 (`echo hello`)",
        ours: percentile(ptyMs, 0.95),
        baseline: percentile(pipeMs, 0.95),
        unit: "ms",
        target: "—",
        met: null,
      },
    ],
    notes: [
      `PTY round trip: ${CALLS} calls each (after ${WARMUP_CALLS} warm-ups), interleaved, in the bench process. Ours: the libc terminal backend (posix_openpt, one posix_spawn with the slave as the child's controlling terminal, read to EIO, waitpid, close) running \`${COMMAND}\`. Baseline: \`new Deno.Command("/bin/sh", { args: ["-c", "${COMMAND}"] }).output()\` (pipes).`,
    ],
  };
}
