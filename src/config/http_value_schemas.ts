import type { Zod } from "./setting.ts";

/** Largest request read timeout: one day (timers hold at most 2^31-1 ms). */
export const MAX_REQUEST_READ_TIMEOUT_MS = 86_400_000;
/** Shortest auth token accepted, in characters. */
export const MIN_AUTH_TOKEN_LENGTH = 16;
/** How to make a token that passes. */
export const GENERATE_TOKEN = "generate one with: openssl rand -hex 32";

/** An HTTP bearer token, or null; never quoted in a message, since messages go to logs. */
export function authToken(z: Zod) {
  return z.string().nullable().transform((token, context) => {
    if (token === null || token === "") return null;
    const problem = !/^[\x21-\x7e]+$/.test(token)
      ? "contains spaces or characters other than printable ASCII, which an Authorization header cannot carry"
      : token.length < MIN_AUTH_TOKEN_LENGTH
      ? `is too short (${token.length} characters); an auth token needs at least ${MIN_AUTH_TOKEN_LENGTH}`
      : null;
    if (problem === null) return token;
    context.addIssue({
      code: "custom",
      message: `${problem}; ${GENERATE_TOKEN}`,
      params: { sentence: true },
    });
    return z.NEVER;
  });
}
