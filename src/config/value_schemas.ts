import { errorText } from "../contract/error_text.ts";
import { compilePattern } from "../policy/command_regex.ts";
import type { Zod } from "./setting.ts";

// Schemas that several settings share, built on first use: zod schemas cost milliseconds to
// build, and a server started with neither flags, variables nor a file checks none.

/** An integer of at least 1. */
export function positiveInteger(z: Zod) {
  return z.int().min(1);
}

/** An integer of at least 0. */
export function nonNegativeInteger(z: Zod) {
  return z.int().min(0);
}

/** A non-empty path. */
export function path(z: Zod) {
  return z.string().min(1);
}

/** A list of non-empty paths. */
export function pathList(z: Zod) {
  return z.array(path(z));
}

/** A list of non-empty names, trimmed. */
export function nameList(z: Zod) {
  return z.array(z.string().trim().min(1));
}

/** Text, where empty means null. */
export function optionalText(z: Zod) {
  return z.string().nullable().transform((text) => text === "" ? null : text);
}

/** A regular expression (compiled), where empty or null means off. */
export function pattern(z: Zod) {
  return z.string().nullable().transform((source, context) => {
    if (source === null || source === "") return null;
    try {
      return compilePattern(source);
    } catch (error) {
      const reason = errorText(error);
      context.addIssue({
        code: "custom",
        message: `contains invalid regular expression '${source}': ${reason}`,
        params: { sentence: true },
      });
      return z.NEVER;
    }
  });
}

/** A bare web origin (scheme, host, port), normalized. */
export function origin(z: Zod) {
  return z.string().transform((text, context) => {
    const url = URL.canParse(text) ? new URL(text) : null;
    const bare = url !== null && url.origin !== "null" && url.pathname === "/" &&
      url.search === "" && url.hash === "" && url.username === "" && url.password === "";
    if (bare) return url.origin;
    context.addIssue({ code: "custom", message: "not an origin" });
    return z.NEVER;
  });
}

/** What a regex setting accepts, for its messages. */
export const PATTERN_EXPECTED = "a regular expression, or an empty value to turn it off";
