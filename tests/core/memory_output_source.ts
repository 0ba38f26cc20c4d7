import type { TimerClock } from "../../src/core/clock.ts";
import type { OutputSource, SourceChunk } from "../../src/core/condition_ports.ts";
import type { StreamName } from "../../src/core/output_log.ts";
import { RingBuffer } from "../../src/core/ring_buffer.ts";

const encoder = new TextEncoder();

/** An execution's output kept in memory: two ring buffers sharing one position counter. */
export class MemoryOutputSource implements OutputSource {
  #buffers: Record<StreamName, RingBuffer>;
  #latestSeq = 1;
  #listeners = new Set<(chunk: SourceChunk) => void>();
  #clock: TimerClock;
  #lastOutputAt: number;
  #ended = false;
  #exit = Promise.withResolvers<void>();

  constructor(options: { clock: TimerClock; capacityBytes?: number }) {
    const { clock, capacityBytes = 1 << 20 } = options;
    this.#clock = clock;
    this.#lastOutputAt = clock.nowMs();
    this.#buffers = {
      stdout: new RingBuffer({ capacityBytes }),
      stderr: new RingBuffer({ capacityBytes }),
    };
  }

  get latestSeq(): number {
    return this.#latestSeq;
  }

  get ended(): boolean {
    return this.#ended;
  }

  get exited(): Promise<void> {
    return this.#exit.promise;
  }

  /** Subscribers right now (a closed watch leaves none behind). */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  *chunksFrom(stream: StreamName, seq: number): Generator<SourceChunk> {
    for (const { startSeq, bytes } of this.#buffers[stream].chunksFrom(seq)) {
      yield { stream, seq: startSeq, bytes };
    }
  }

  onAppend(listener: (chunk: SourceChunk) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  lastOutputAt(): number {
    return this.#lastOutputAt;
  }

  /** Appends `data` (text, or bytes of whole UTF-8 characters) to `stream`; returns its position. */
  append(stream: StreamName, data: string | Uint8Array): number {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    const seq = this.#latestSeq;
    if (bytes.length === 0) return seq;
    this.#buffers[stream].append(seq, bytes);
    this.#latestSeq += bytes.length;
    this.#lastOutputAt = this.#clock.nowMs();
    for (const listener of this.#listeners) listener({ stream, seq, bytes });
    return seq;
  }

  /** No live work remains. */
  end(): void {
    this.#ended = true;
    this.#exit.resolve();
  }
}
