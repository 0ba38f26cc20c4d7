import { z } from "zod";
import { errorText } from "../contract/error_text.ts";
import { compilePattern } from "../policy/command_regex.ts";

// Schemas that several settings share.
export const positiveInteger = z.int().min(1);
export const nonNegativeInteger = z.int().min(0);
export const path = z.string().min(1);
export const pathList = z.array(path);
export const nameList = z.array(z.string().trim().min(1));
export const optionalText = z.string().nullable().transform((text) => text === "" ? null : text);
export const pattern = z.string().nullable().transform((source, context) => {
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
export const origin = z.string().transform((text, context) => {
  const url = URL.canParse(text) ? new URL(text) : null;
  const bare = url !== null && url.origin !== "null" && url.pathname === "/" &&
    url.search === "" && url.hash === "" && url.username === "" && url.password === "";
  if (bare) return url.origin;
  context.addIssue({ code: "custom", message: "not an origin" });
  return z.NEVER;
});

/** What a regex setting accepts, for its messages. */
export const PATTERN_EXPECTED = "a regular expression, or an empty value to turn it off";
