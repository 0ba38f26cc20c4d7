import type { SpawnedProcess } from "../types.ts";
import type { PtyProcess } from "./types.ts";

/**
 * A terminal program in the shape of a pipe execution, for the core: stdout is the terminal's
 * one output stream, stderr is empty, and stdin types into the terminal. Closing stdin sends
 * nothing (a terminal has no end of input: write `C-d` for that); the terminal itself stays
 * open until `pty.close()`.
 */
export function asSpawnedProcess(pty: PtyProcess): SpawnedProcess {
  return {
    pid: pty.pid,
    stdin: new WritableStream<Uint8Array>({ write: (chunk) => pty.write(chunk) }),
    stdout: pty.output,
    stderr: new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
    exited: pty.exited,
  };
}
