import {
  collectSecrets,
  mergeSecrets,
  redactText,
  type Secret,
  StreamingRedactor,
} from "./redaction.ts";

/** Redaction of one set of secrets, whole texts and streams alike. */
export interface SecretRedaction {
  text(text: string): string;
  stream(): StreamingRedactor | null;
}

/**
 * Redaction of the secrets in `env` whose names `pattern` matches, plus, per execution, those
 * of its `env` overlay; `pattern` null turns redaction off. The server's secrets are collected
 * once.
 */
export function secretRedaction(
  env: Record<string, string>,
  pattern: RegExp | null,
): (overlay: Record<string, string>) => SecretRedaction {
  const base = pattern === null ? [] : collectSecrets(env, pattern);
  const server = redactionOf(base);
  return (overlay) =>
    pattern === null || Object.keys(overlay).length === 0
      ? server
      : redactionOf(mergeSecrets(base, overlay, pattern));
}

function redactionOf(secrets: readonly Secret[]): SecretRedaction {
  return {
    text: (text) => redactText(text, secrets),
    stream: () => secrets.length === 0 ? null : new StreamingRedactor(secrets),
  };
}
