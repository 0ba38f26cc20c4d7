import { startServer } from "../../tests/e2e/harness.ts";
import { currentPtyBackend, type PtyBackend } from "../../src/platform/mod.ts";
import { callOk, NONE } from "./session.ts";
import { median, percentile } from "./stats.ts";
import type { Row, SectionResult } from "./table.ts";

const CALLS = 200;
const WARMUP_CALLS = 10;
/** Issue 17: a PTY spawn round trip within 3 ms of the pipe round trip. */
const TARGET_EXTRA_MS = 3;
const COMMAND = "echo hello";

/**
 * `execute` of `echo hello` with `tty: true` against the same call on pipes, interleaved, on one
 * server started as `deno task start:tty` does; then the terminal backend alone against
 * `Deno.Command`, to tell the terminal's cost from the server's.
 */
export async function benchPtyRoundTrip(): Promise<SectionResult> {
  const backend = currentPtyBackend();
  const unavailable = backend.unavailable();
  if (unavailable !== null) return { rows: [], notes: [], skipped: unavailable };
  await using session = await startServer({ permissionSet: "tty" });
  const execute = (tty: boolean) => async (): Promise<number> => {
    const started = performance.now();
    const payload = await callOk(session, "execute", { command: COMMAND, side_effects: NONE, tty });
    const elapsed = performance.now() - started;
    if (payload.status !== "completed" || payload.stdout !== "hello\n") {
      throw new Error(`execute of ${COMMAND} (tty ${tty}) answered ${JSON.stringify(payload)}`);
    }
    return elapsed;
  };
  const server = await interleaved(execute(true), execute(false));
  const alone = await interleaved(() => overBackend(backend), overPipes);
  return {
    rows: [
      ...rowsOf("PTY round trip through the server (execute `echo hello`)", server, true),
      ...rowsOf("PTY spawn alone (backend, `echo hello`)", alone, false),
    ],
    notes: [
      `PTY round trip: ${CALLS} calls each (after ${WARMUP_CALLS} warm-ups), interleaved. Through the server: \`execute\` of \`${COMMAND}\` with \`tty: true\` (text view) against the same call on pipes, one server started with \`-P=tty\`, measured at the client. Backend alone: the libc terminal (posix_openpt, one posix_spawn with the slave as controlling terminal, read to EIO, waitpid, close) against \`new Deno.Command("/bin/sh", { args: ["-c", "${COMMAND}"] }).output()\`, in the bench process.`,
    ],
  };
}

/** p50 (with the target) and p95 rows of one comparison. */
function rowsOf(figure: string, samples: Samples, targeted: boolean): Row[] {
  const ptyP50 = median(samples.pty);
  const pipeP50 = median(samples.pipes);
  return [
    {
      figure: `${figure} p50`,
      ours: ptyP50,
      baseline: pipeP50,
      unit: "ms",
      target: targeted ? `≤ baseline + ${TARGET_EXTRA_MS} ms` : "—",
      met: targeted ? ptyP50 - pipeP50 <= TARGET_EXTRA_MS : null,
    },
    {
      figure: `${figure} p95`,
      ours: percentile(samples.pty, 0.95),
      baseline: percentile(samples.pipes, 0.95),
      unit: "ms",
      target: "—",
      met: null,
    },
  ];
}

interface Samples {
  pty: number[];
  pipes: number[];
}

/** Warms both up, then alternates which goes first. */
async function interleaved(
  overPty: () => Promise<number>,
  overPipe: () => Promise<number>,
): Promise<Samples> {
  for (let call = 0; call < WARMUP_CALLS; call++) {
    await overPty();
    await overPipe();
  }
  const samples: Samples = { pty: [], pipes: [] };
  for (let call = 0; call < CALLS; call++) {
    if (call % 2 === 0) {
      samples.pty.push(await overPty());
      samples.pipes.push(await overPipe());
    } else {
      samples.pipes.push(await overPipe());
      samples.pty.push(await overPty());
    }
  }
  return samples;
}

const ENV = { PATH: "/usr/local/bin:/usr/bin:/bin" };

async function overBackend(backend: PtyBackend): Promise<number> {
  const started = performance.now();
  const pty = backend.spawn({
    shell: "/bin/sh",
    command: COMMAND,
    cwd: "/",
    env: ENV,
    cols: 120,
    rows: 40,
  });
  const output = await new Response(pty.output).text();
  await pty.exited;
  await pty.close();
  const elapsed = performance.now() - started;
  if (output !== "hello\r\n") throw new Error(`${COMMAND} on a terminal printed ${output}`);
  return elapsed;
}

async function overPipes(): Promise<number> {
  const started = performance.now();
  const result = await new Deno.Command("/bin/sh", { args: ["-c", COMMAND], env: ENV }).output();
  const elapsed = performance.now() - started;
  if (new TextDecoder().decode(result.stdout) !== "hello\n") {
    throw new Error(`${COMMAND} through pipes printed something else`);
  }
  return elapsed;
}
