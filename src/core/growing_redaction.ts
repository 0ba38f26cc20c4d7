import type { AddedSecret, Redaction, StreamRedactor } from "./redaction.ts";

/**
 * An execution's redaction that can learn secrets while it runs (what the agent types at a
 * password prompt): `build` makes the redaction of the fixed secrets plus the added ones. Its
 * streams switch to the new secrets at the next chunk; what a stream held back is released
 * under the old ones first (it was output before the secret existed).
 */
export class GrowingRedaction implements Redaction {
  #build: (added: readonly AddedSecret[]) => Redaction;
  #added: AddedSecret[] = [];
  #current: Redaction;
  #version = 0;

  constructor(build: (added: readonly AddedSecret[]) => Redaction) {
    this.#build = build;
    this.#current = build([]);
  }

  /** Redacts `secret` from now on, everywhere this redaction is used; idempotent. */
  add(secret: AddedSecret): void {
    if (this.#added.some((s) => s.name === secret.name && s.value === secret.value)) return;
    this.#added.push({ ...secret });
    this.#current = this.#build(this.#added);
    this.#version++;
  }

  text(text: string): string {
    return this.#current.text(text);
  }

  stream(): StreamRedactor {
    let version = this.#version;
    let inner = this.#current.stream();
    const follow = (): string => {
      if (version === this.#version) return "";
      const held = inner?.flush() ?? "";
      version = this.#version;
      inner = this.#current.stream();
      return held;
    };
    return {
      push: (text) => {
        const held = follow();
        return held + (inner === null ? text : inner.push(text));
      },
      flush: () => {
        const held = follow();
        return held + (inner?.flush() ?? "");
      },
    };
  }
}
