import type { ChunkReader } from "./chunk_reader.ts";
import type { OutputLog, StreamName } from "./output_log.ts";
import type { StreamRedactor } from "./redaction.ts";
import { Utf8Normalizer } from "./utf8.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a pump needs: where output goes, and who hears that some arrived. */
export interface PumpOptions {
  log: OutputLog;
  /** Null when nothing is redacted (output is then copied byte for byte). */
  redactor: StreamRedactor | null;
  /** Called for every chunk read, before it is appended. */
  onChunk(): void;
  /** Called after each append with the bytes' first position (the condition watcher listens). */
  onAppend?(stream: StreamName, seq: number, bytes: Uint8Array): void;
}

/**
 * Drains one pipe into the log: UTF-8 normalized, then redacted. Resolves at EOF or when the
 * reader is cancelled or the pipe breaks; what was read is kept.
 */
export async function pumpOutput(
  stream: StreamName,
  reader: ChunkReader,
  options: PumpOptions,
): Promise<void> {
  const { log, redactor, onChunk, onAppend } = options;
  const normalizer = new Utf8Normalizer();
  const append = (bytes: Uint8Array) => {
    const seq = log.latestSeq;
    log.append(stream, bytes);
    onAppend?.(stream, seq, bytes);
  };
  const emit = (bytes: Uint8Array, final: boolean) => {
    if (redactor === null) {
      if (bytes.length > 0) append(bytes);
      return;
    }
    let text = bytes.length > 0 ? redactor.push(decoder.decode(bytes)) : "";
    if (final) text += redactor.flush();
    if (text.length > 0) append(encoder.encode(text));
  };
  try {
    for (let chunk = await reader.read(); chunk !== null; chunk = await reader.read()) {
      onChunk();
      emit(normalizer.push(chunk), false);
    }
  } catch {
    // A cancelled or broken pipe ends the drain; what was read is kept.
  } finally {
    emit(normalizer.flush(), true);
  }
}
