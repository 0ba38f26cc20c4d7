import type { Secret } from "./redaction.ts";

/** The variable that carries the HTTP bearer token: the server's alone, never a child's. */
export const AUTH_TOKEN_VARIABLE = "YIELDSHELL_AUTH_TOKEN";

/**
 * The server's environment as commands inherit it: without the auth token, which would let
 * any build script or package hook print it (a call's own `env` can still set anything).
 */
export function childEnvironment(env: Record<string, string>): Record<string, string> {
  const { [AUTH_TOKEN_VARIABLE]: _token, ...inherited } = env;
  return inherited;
}

/**
 * The auth token as a secret redacted from all output whatever the redaction pattern (and
 * whether it came from the variable, the flag or the config file); none without a token.
 */
export function authTokenSecrets(token: string | null): Secret[] {
  return token === null ? [] : [{ name: AUTH_TOKEN_VARIABLE, value: token }];
}
