/** The core's port to secret redaction; `src/app.ts` builds it from the policy's. */
export interface Redaction {
  /** A whole text with every secret replaced by its marker. */
  text(text: string): string;
  /** A redactor for one output stream, or null when there is nothing to redact. */
  stream(): StreamRedactor | null;
}

/** Redacts a stream chunk by chunk, as if it were redacted whole. */
export interface StreamRedactor {
  /** The redacted text that is final so far; a tail that may grow into a secret is held. */
  push(text: string): string;
  /** The held tail, redacted; the stream ends. */
  flush(): string;
}

/** A value to redact that is not in any environment (text typed at a password prompt). */
export interface AddedSecret {
  /** Shown in the marker: `[REDACTED:<name>]`. */
  name: string;
  value: string;
}
