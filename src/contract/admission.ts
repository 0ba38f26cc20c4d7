/** A request to start a command, as the policy sees it. */
export interface AdmissionRequest {
  command: string;
  sideEffects: readonly string[];
  shell: string | null;
  cwd: string | null;
  /** The call's `env` overlay: its variables are checked while a name list is set. */
  env: Readonly<Record<string, string>>;
}

/** Where the command may run, or why it may not (the `failed_to_start` error). */
export type Admission = { allow: true; cwd: string } | { allow: false; reason: string };
