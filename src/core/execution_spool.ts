import type { SpoolSegment } from "./spool_segment.ts";
import type { SpoolDisk, SpoolFile } from "./spool_port.ts";
import { removeQuietly } from "./spool_directory.ts";
import { type SpoolHost, StreamSpool, type StreamSpoolOptions } from "./stream_spool.ts";

/** What an execution's spool uses of the server's (`Spool` provides it). */
export interface SpoolServices {
  readonly disk: SpoolDisk;
  readonly problem: string | null;
  readonly maxStreamBytes: number;
  readonly isClosed: boolean;
  readonly totalCause: "max_spool_total_bytes" | "free_space";
  readonly streamSizes: Omit<StreamSpoolOptions, "host" | "name">;
  register(segment: SpoolSegment): void;
  fileOf(segment: SpoolSegment): SpoolFile;
  admit(bytes: number): boolean;
  grew(bytes: number): void;
  release(segment: SpoolSegment): void;
  scratch(name: string): Uint8Array;
}

/**
 * The spool of one execution: a directory inside the server's, made on first write, holding
 * one `StreamSpool` per stream; `close()` deletes it.
 */
export class ExecutionSpool {
  readonly #spool: SpoolServices;
  readonly #directory: string | null;
  #made = false;
  #streams: StreamSpool[] = [];
  #closed = false;

  constructor(spool: SpoolServices, directory: string | null) {
    this.#spool = spool;
    this.#directory = directory;
  }

  /** Why this execution's output is not spooled, or null. */
  get problem(): string | null {
    return this.#directory === null ? this.#spool.problem : null;
  }

  /** `max_spool_bytes`. */
  get maxStreamBytes(): number {
    return this.#spool.maxStreamBytes;
  }

  /** A new stream spool writing files named `name-NNNNNN.seg`. */
  stream(name: string): StreamSpool {
    const spool = new StreamSpool({ host: this.#host(), name, ...this.#spool.streamSizes });
    this.#streams.push(spool);
    return spool;
  }

  /** Deletes the execution's files; idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const stream of this.#streams) stream.close();
    if (this.#made && this.#directory !== null && !this.#spool.isClosed) {
      removeQuietly(this.#spool.disk, this.#directory);
    }
  }

  #host(): SpoolHost {
    const spool = this.#spool;
    return {
      segmentPath: (name) => {
        const directory = this.#directory;
        if (directory === null || this.#closed || spool.isClosed) {
          throw new Error(this.problem ?? "The spool of this execution is closed");
        }
        if (!this.#made) {
          spool.disk.makeDirectory(directory);
          this.#made = true;
        }
        return spool.disk.join(directory, name);
      },
      register: (segment) => spool.register(segment),
      fileOf: (segment) => spool.fileOf(segment),
      admit: (bytes) => spool.admit(bytes),
      get totalCause() {
        return spool.totalCause;
      },
      grew: (bytes) => spool.grew(bytes),
      release: (segment) => spool.release(segment),
      scratch: (name) => spool.scratch(name),
    };
  }
}
