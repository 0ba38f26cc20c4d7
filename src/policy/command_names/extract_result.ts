/** What a command line would run, found statically. */
export interface CommandNames {
  /** Command names (unquoted, as written) in the order found; wrappers included. */
  names: string[];
  /** Names of the functions the command line defines. */
  functions: string[];
}

/**
 * Names; or why a command name cannot be known statically (`unknown`), or why the command is
 * refused outright (`refused`, a complete message), each with the names found so far.
 */
export type ExtractResult =
  | CommandNames
  | { unknown: string; names: string[] }
  | { refused: string; names: string[] };
