import { systemClock } from "../../src/core/clock.ts";
import type { StreamName } from "../../src/core/output_log.ts";
import { Utf8Normalizer } from "../../src/core/utf8.ts";
import { MemoryOutputSource } from "./memory_output_source.ts";

/** A real `sh -c` child whose pipes feed a {@linkcode MemoryOutputSource}, as an execution's do. */
export interface ProcessOutputSource extends AsyncDisposable {
  source: MemoryOutputSource;
  /** Writes to the child's stdin. */
  write(text: string): Promise<void>;
  /** Settles once the child exited and both pipes are drained. */
  ended: Promise<void>;
}

/** Starts `command` with piped stdin, stdout and stderr; disposing kills it and waits. */
export function spawnOutputSource(command: string): ProcessOutputSource {
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", command],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const source = new MemoryOutputSource({ clock: systemClock });
  const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  const pump = async (stream: StreamName, readable: ReadableStream<Uint8Array>) => {
    const reader = readable.getReader();
    readers.push(reader);
    const normalizer = new Utf8Normalizer();
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        source.append(stream, normalizer.push(value));
      }
    } catch {
      // Cancelled on dispose.
    }
    source.append(stream, normalizer.flush());
  };
  const ended = Promise.all([
    child.status,
    pump("stdout", child.stdout),
    pump("stderr", child.stderr),
  ]).then(() => source.end());
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  return {
    source,
    ended,
    write: (text) => writer.write(encoder.encode(text)),
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already exited.
      }
      await writer.close().catch(() => {});
      // A grandchild may still hold the pipes: stop reading rather than wait for it.
      for (const reader of readers) await reader.cancel().catch(() => {});
      await ended;
    },
  };
}
