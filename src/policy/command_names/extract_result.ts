/** What a command line would run, found statically. */
export interface CommandNames {
  /** Command names (unquoted, as written) in the order found; wrappers included. */
  names: string[];
  /** Names of the functions the command line defines. */
  functions: string[];
  /** Whether the command line may change PATH, so bare names may resolve to other files. */
  reassignsPath: boolean;
}

/** Names, or why a command name cannot be known statically (with the names found so far). */
export type ExtractResult = CommandNames | { unknown: string; names: string[] };
