/**
 * Raised when a command cannot be parsed at all: too large, too slow, or parser closed. In its
 * own file so that the checker can be imported without loading the tree-sitter runtime.
 */
export class BashParseError extends Error {
  override name = "BashParseError";
}
