import type { ProcessControl, ProcessTree, ShellExit } from "../../src/core/process.ts";

const encoder = new TextEncoder();

/** A process that prints `stdout`, then exits with `code` (or waits for a signal when null). */
export interface FakeScript {
  stdout?: string[];
  code?: number | null;
}

/** Process control whose trees are in-memory streams; a signal ends them. */
export function fakeProcesses(scripts: Map<string, FakeScript>) {
  const signals: [number, string][] = [];
  let nextPid = 1000;
  const processes: ProcessControl = {
    spawn(request): ProcessTree {
      const script = scripts.get(request.command) ?? {};
      const pid = nextPid++;
      const { promise: exited, resolve } = Promise.withResolvers<ShellExit>();
      if (script.code !== null) {
        queueMicrotask(() => resolve({ exitCode: script.code ?? 0, signal: null }));
      }
      return {
        pid,
        stdin: new WritableStream<Uint8Array>(),
        stdout: ReadableStream.from((script.stdout ?? []).map((s) => encoder.encode(s))),
        stderr: ReadableStream.from<Uint8Array>([]),
        exited,
        ended: exited.then(() => {}),
        signal(signal) {
          signals.push([pid, signal]);
          resolve({ exitCode: -15, signal });
          return Promise.resolve();
        },
        release() {},
      };
    },
    supportsSignal: (signal) => ["SIGTERM", "SIGKILL", "SIGINT"].includes(signal),
    sweep: () => Promise.resolve(),
  };
  return { processes, signals };
}
