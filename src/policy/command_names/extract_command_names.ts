import type { BashParser, SyntaxNode } from "./bash_parser.ts";
import { NameCollector } from "./name_collector.ts";
import type { ExtractResult } from "./extract_result.ts";

/** Options of {@link extractCommandNames}. */
export interface ExtractOptions {
  /**
   * The whole text that was parsed. The root node leaves out leading blanks and escapes, which
   * matter (`\ rm` runs " rm"). @default the root node's text
   */
  source?: string;
  /** `performance.now()` time after which nested scripts are no longer parsed. */
  deadline?: number;
}

/**
 * Finds the command names of a parsed command line. Scripts handed to shells (`bash -c`,
 * here-documents fed to `sh`, `env -S`, `git -c alias.x=!...`) are parsed with `parser`.
 * The tree must be free of parse errors (`rootNode.hasError` false).
 */
export function extractCommandNames(
  root: SyntaxNode,
  parser: BashParser,
  options: ExtractOptions = {},
): ExtractResult {
  const { deadline = performance.now() + parser.timeoutMs } = options;
  const collector = new NameCollector(parser, deadline);
  const source = options.source ?? root.text;
  collector.walk(
    root,
    { text: source, offset: options.source === undefined ? root.startIndex : 0 },
    0,
  );
  return collector.result();
}
