import type { Admission, AdmissionRequest } from "../contract/admission.ts";
import type { Limits } from "../contract/limits.ts";
import type { Clock } from "./clock.ts";
import type { Logger } from "./logger.ts";
import type { ProcessControl } from "./process.ts";
import type { AddedSecret, Redaction } from "./redaction.ts";
import type { Spool } from "./spool.ts";
import type { TerminalControl } from "./terminal_port.ts";
import type { UntilPorts } from "./until.ts";

/** What the core needs from the outside world; `src/app.ts` provides it. */
export interface ManagerOptions {
  processes: ProcessControl;
  /** Pseudo-terminals for `tty: true`; without it, a tty call fails to start. */
  terminals?: TerminalControl;
  /** Runs every policy check in order; resolves and checks the cwd. */
  admit(request: AdmissionRequest): Admission;
  /** Settles when `admit` is fully loaded (the bash grammar loads after startup). */
  ready?: Promise<void>;
  /**
   * Redaction for a call's `env` overlay; `{}` gives the server-wide one. `added` secrets
   * (typed at a password prompt) are redacted whatever their name or length.
   */
  redactionFor(overlay: Record<string, string>, added?: readonly AddedSecret[]): Redaction;
  /** Environment every child starts from (server env, then the non-interactive overlay). */
  baseEnv: Record<string, string>;
  /** Shell used when the call names none. */
  defaultShell: string;
  limits: Limits;
  /** Most executions with live work one session (owner) may hold. @default {limits.maxProcesses} */
  maxProcessesPerSession?: number;
  clock: Clock;
  logger: Logger;
  /** Where output older than the memory cache goes; absent or null: `spool: off`. */
  spool?: Spool | null;
  /** `until` conditions: the regex runner and port probe of `src/platform`, a timer clock. */
  until: UntilPorts;
}
