export { checksValues, resolveConfig } from "./resolve.ts";
export type { Resolution, ResolveInput } from "./resolve.ts";
export type { Config } from "./schema.ts";
export { helpText } from "./help.ts";
