/**
 * The command-name policy, kept at this path for its importers; the code is in
 * `command_names/`.
 *
 * @module
 */
export * from "./command_names/mod.ts";
