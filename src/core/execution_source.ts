import type { OutputSource } from "./condition_ports.ts";
import type { Execution } from "./execution.ts";

/** One execution's output as the condition watcher reads it; times in epoch milliseconds. */
export function executionSource(execution: Execution): OutputSource {
  return {
    get latestSeq() {
      return execution.log.latestSeq;
    },
    chunksFrom: (stream, seq) => execution.log.chunksFrom(stream, seq),
    onAppend: (listener) => execution.appended.subscribe(listener),
    lastOutputAt: () => (execution.lastOutputAt ?? execution.startedAt) * 1000,
    get ended() {
      return !execution.live;
    },
    exited: execution.finished,
  };
}
