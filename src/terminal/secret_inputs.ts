import { isSecretInput } from "./awaiting_input.ts";

/** The marker name of typed secrets: they are redacted as `[REDACTED:TTY_INPUT]`. */
export const TTY_INPUT_SECRET = "TTY_INPUT";

/** A value to redact, shaped as the redaction policy's `Secret`. */
export interface TypedSecret {
  name: string;
  value: string;
}

/**
 * What the agent typed while the terminal did not echo (passwords, passphrases): the caller
 * feeds these to redaction so they never appear in results, logs or `ps`.
 */
export class SecretInputs {
  #values = new Set<string>();

  /**
   * Notes text typed into the terminal in `state`; returns whether it was secret. Each line of
   * a secret write is one secret (the Enter that ends it is not part of it).
   */
  note(text: string, state: { echo: boolean; canonical: boolean }): boolean {
    if (!isSecretInput(state)) return false;
    for (const line of text.split(/[\r\n]+/)) {
      if (line !== "") this.#values.add(line);
    }
    return true;
  }

  /** Every secret typed so far, longest first (as redaction wants them). */
  get secrets(): TypedSecret[] {
    return [...this.#values]
      .sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
      .map((value) => ({ name: TTY_INPUT_SECRET, value }));
  }
}
