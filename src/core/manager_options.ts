import type { Admission, AdmissionRequest } from "../contract/admission.ts";
import type { Limits } from "../contract/limits.ts";
import type { Clock } from "./clock.ts";
import type { Logger } from "./logger.ts";
import type { ProcessControl } from "./process.ts";
import type { Redaction } from "./redaction.ts";

/** What the core needs from the outside world; `src/app.ts` provides it. */
export interface ManagerOptions {
  processes: ProcessControl;
  /** Runs every policy check in order; resolves and checks the cwd. */
  admit(request: AdmissionRequest): Admission;
  /** Settles when `admit` is fully loaded (the bash grammar loads after startup). */
  ready?: Promise<void>;
  /** Redaction for a call's `env` overlay; `{}` gives the server-wide one. */
  redactionFor(overlay: Record<string, string>): Redaction;
  /** Environment every child starts from (server env, then the non-interactive overlay). */
  baseEnv: Record<string, string>;
  /** Shell used when the call names none. */
  defaultShell: string;
  limits: Limits;
  /** Most executions with live work one session (owner) may hold. @default {limits.maxProcesses} */
  maxProcessesPerSession?: number;
  clock: Clock;
  logger: Logger;
}
