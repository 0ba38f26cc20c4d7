/**
 * Command-name policy: finds every command a bash command line would run, with tree-sitter-bash,
 * and checks the names against a blacklist or a whitelist.
 *
 * @module
 */
export { checkCommandNames } from "./check_command_names.ts";
export { checkShellGrammar, checkShellName } from "./check_shell.ts";
export { extractCommandNames, type ExtractOptions } from "./extract_command_names.ts";
export type { CommandNames, ExtractResult } from "./extract_result.ts";
export type { NameLists } from "./name_lists.ts";
