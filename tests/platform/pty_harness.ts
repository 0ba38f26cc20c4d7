import { currentPtyBackend } from "../../src/platform/mod.ts";
import type { PtyBackend, PtyProcess } from "../../src/platform/mod.ts";
import { eventually, marker } from "../e2e/harness.ts";

const decoder = new TextDecoder();

/** A program on a terminal whose output a test can watch; disposing kills and awaits it. */
export interface RunningPty extends AsyncDisposable {
  pty: PtyProcess;
  /** The value of `YS_TEST_MARKER` in the program's environment (for /proc checks). */
  marker: string;
  /** Everything read from the terminal so far, decoded. */
  text(): string;
  /** `performance.now()` of the last output chunk (the start, before any). */
  lastOutputAt(): number;
  /** Raw bytes read so far. */
  bytes(): Uint8Array;
  /** Settles when `output` has ended. */
  ended: Promise<void>;
  /** Types text (a string is UTF-8 encoded). */
  type(text: string): Promise<void>;
  /** Waits until the output contains `wanted` (after `from`, an index into `text()`). */
  waitFor(wanted: string | RegExp, from?: number): Promise<void>;
}

export interface PtyStartOptions {
  cols?: number;
  rows?: number;
  env?: Record<string, string>;
  cwd?: string;
  shell?: string;
  backend?: PtyBackend;
}

/** Default backend of this OS, built once per test file. */
export function defaultBackend(): PtyBackend {
  return currentPtyBackend();
}

/** Starts `command` through `/bin/sh -c` on a terminal and collects its output. */
export function startPty(command: string, options: PtyStartOptions = {}): RunningPty {
  const tag = marker();
  const backend = options.backend ?? defaultBackend();
  const pty = backend.spawn({
    shell: options.shell ?? "/bin/sh",
    command,
    cwd: options.cwd ?? Deno.cwd(),
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      LANG: "C.UTF-8",
      YS_TEST_MARKER: tag,
      ...options.env,
    },
    cols: options.cols ?? 120,
    rows: options.rows ?? 40,
  });
  const chunks: Uint8Array[] = [];
  let text = "";
  let lastOutputAt = performance.now();
  const ended = (async () => {
    for await (const chunk of pty.output) {
      chunks.push(chunk);
      lastOutputAt = performance.now();
      text += decoder.decode(chunk, { stream: true });
    }
  })();
  const encoder = new TextEncoder();
  return {
    pty,
    marker: tag,
    text: () => text,
    lastOutputAt: () => lastOutputAt,
    bytes: () => {
      const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      let offset = 0;
      for (const chunk of chunks) {
        all.set(chunk, offset);
        offset += chunk.length;
      }
      return all;
    },
    ended,
    type: (typed) => pty.write(encoder.encode(typed)),
    async waitFor(wanted, from = 0) {
      const seen = () => {
        const tail = text.slice(from);
        return typeof wanted === "string" ? tail.includes(wanted) : wanted.test(tail);
      };
      try {
        await eventually(seen, 20_000);
      } catch {
        throw new Error(
          `Timed out waiting for ${JSON.stringify(String(wanted))} in terminal output ${
            JSON.stringify(text.slice(from).slice(-600))
          }`,
        );
      }
    },
    async [Symbol.asyncDispose]() {
      await pty.signalSession("SIGKILL").catch(() => false);
      pty.signal("SIGKILL");
      try {
        Deno.kill(pty.pid, "SIGKILL"); // Also when a broken spawn left it outside its own group.
      } catch { /* already gone */ }
      await pty.exited;
      await pty.close();
      await ended;
    },
  };
}
