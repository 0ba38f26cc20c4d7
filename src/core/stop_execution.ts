import type { StopArgs } from "../contract/arguments.ts";
import { failed, type Outcome, succeeded } from "../contract/outcome.ts";
import type { StopResult } from "../contract/results.ts";
import { normalizeSignalName } from "../contract/signal_names.ts";
import * as text from "../contract/texts.ts";
import { clamp } from "./call_checks.ts";
import type { Execution } from "./execution.ts";
import type { ProcessControl } from "./process.ts";
import { GRACEFUL_STOP_MS, MAX_STOP_GRACE_MS } from "./timing.ts";

/** `stop` of the caller's record `execution` (null when the id is unknown to the session). */
export async function stopExecution(
  execution: Execution | null,
  args: StopArgs,
  processes: Pick<ProcessControl, "supportsSignal">,
): Promise<Outcome<StopResult>> {
  const id = args.execution_id;
  const raw = args.signal ?? "SIGTERM";
  if (execution === null) {
    return failed({ execution_id: id, stopped: false, error: text.unknownId(id) });
  }
  if (!execution.live) {
    // Not a failure: nothing of it runs, which is what a stop is for; say how it ended.
    const { status } = execution;
    return succeeded({
      execution_id: id,
      stopped: false,
      status,
      error: text.notRunning(status),
    });
  }
  const signal = normalizeSignalName(raw);
  if (signal === null || !processes.supportsSignal(signal)) {
    return failed({ execution_id: id, stopped: false, error: text.invalidSignal(raw) });
  }
  const graceMs = clamp(args.force_after_ms ?? GRACEFUL_STOP_MS, 0, MAX_STOP_GRACE_MS);
  if (await execution.terminate(signal, graceMs, "stop")) {
    return succeeded({ execution_id: id, stopped: true, signal, error: null });
  }
  return failed({ execution_id: id, stopped: false, signal, error: text.STOP_FAILED });
}
