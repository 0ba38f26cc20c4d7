import type { SandboxFields } from "../contract/results.ts";
import type { Execution } from "./execution.ts";

/** Only the newest stderr bytes are scanned for a hint: errors come last, and it stays cheap. */
const HINT_SCAN_BYTES = 64 * 1024;

/**
 * What a result says about the sandbox of `execution`: nothing when the sandbox is off; its
 * profile otherwise; and, once it failed in a way the profile explains, the hint naming the side
 * effect to declare (`withHint`).
 */
export function sandboxFields(execution: Execution, withHint = true): SandboxFields {
  const { sandbox, exitCode, log } = execution;
  if (sandbox === null) return {};
  const fields: SandboxFields = { sandbox: sandbox.label };
  if (!withHint || execution.live || exitCode === null || exitCode === 0) return fields;
  const startSeq = log.newestStart({ maxBytes: HINT_SCAN_BYTES, streams: "stderr" });
  const { stderr } = log.read({ startSeq, maxBytes: HINT_SCAN_BYTES, streams: "stderr" });
  const hint = sandbox.explain({ exitCode, stderr });
  if (hint !== null) fields.sandbox_hint = hint;
  return fields;
}
