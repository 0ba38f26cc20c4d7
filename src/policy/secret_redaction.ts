import { mergeSecrets, redactText, type Secret, StreamingRedactor } from "./redaction.ts";

/** Redaction of one set of secrets, whole texts and streams alike. */
export interface SecretRedaction {
  text(text: string): string;
  stream(): StreamingRedactor | null;
}

/**
 * Redaction of `always` (the auth token), of the secrets in `env` whose names `pattern` matches,
 * and, per execution, of those of its `env` overlay; `pattern` null redacts `always` only. The
 * server's secrets are collected once. `added` secrets (typed at a password prompt) are redacted
 * whatever their name, length or `pattern`.
 */
export function secretRedaction(
  env: Record<string, string>,
  pattern: RegExp | null,
  always: readonly Secret[] = [],
): (overlay: Record<string, string>, added?: readonly Secret[]) => SecretRedaction {
  const base = pattern === null ? [...always] : mergeSecrets([...always], env, pattern);
  const server = redactionOf(base);
  return (overlay, added = []) => {
    const fixed = pattern === null || Object.keys(overlay).length === 0
      ? base
      : mergeSecrets(base, overlay, pattern);
    if (added.length === 0) return fixed === base ? server : redactionOf(fixed);
    return redactionOf(withAdded(fixed, added));
  };
}

/** `fixed` plus the `added` values it lacks (the matcher orders them longest first). */
function withAdded(fixed: readonly Secret[], added: readonly Secret[]): Secret[] {
  const values = new Set(fixed.map((secret) => secret.value));
  return [...fixed, ...added.filter((s) => s.value !== "" && !values.has(s.value))];
}

function redactionOf(secrets: readonly Secret[]): SecretRedaction {
  return {
    text: (text) => redactText(text, secrets),
    stream: () => secrets.length === 0 ? null : new StreamingRedactor(secrets),
  };
}
