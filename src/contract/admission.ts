import type { Confinement } from "./confinement.ts";

/** A request to start a command, as the policy sees it. */
export interface AdmissionRequest {
  command: string;
  sideEffects: readonly string[];
  shell: string | null;
  cwd: string | null;
  /** The call's `env` overlay: its variables are checked while a name list is set. */
  env: Readonly<Record<string, string>>;
}

/** How a sandboxed execution ended, as far as its hint needs it. */
export interface SandboxOutcome {
  /** Exit code; null while running. Only failures (non-zero) get hints. */
  exitCode: number | null;
  /** The execution's stderr text (its newest part is enough). */
  stderr: string;
}

/** How an admitted execution runs under `sandbox: declared` or `strict`. */
export interface SandboxGrant {
  /** Names the profile in every result: `read-only, no network`, ..., `unconfined`. */
  label: string;
  /** What the OS sandbox opens; null runs the command unconfined (the operator consented). */
  confinement: Confinement | null;
  /** The hint for a failure the profile explains (it names the side effect to declare), or null. */
  explain(outcome: SandboxOutcome): string | null;
}

/**
 * Where the command may run, or why it may not (the `failed_to_start` error). `cwdChecked`: the
 * cwd passed a check against allowed roots, so the child must start exactly there (not in what
 * a swapped symlink points to). `sandbox`: absent or null when the sandbox is off.
 */
export type Admission =
  | { allow: true; cwd: string; cwdChecked?: boolean; sandbox?: SandboxGrant | null }
  | { allow: false; reason: string };
