import type { BashParser, SyntaxNode } from "./bash_parser.ts";
import type { Dialect } from "./dialect.ts";
import type { ExtractResult } from "./extract_result.ts";
import { NameCollector } from "./name_collector.ts";
import { staticWord } from "./words.ts";

/** Options of {@link extractCommandNames}. */
export interface ExtractOptions {
  /**
   * The whole text that was parsed. The root node leaves out leading blanks and escapes, which
   * matter (`\ rm` runs " rm"). @default the root node's text
   */
  source?: string;
  /** `performance.now()` time after which nested scripts are no longer parsed. */
  deadline?: number;
  /** The shell that runs the command line. @default "bash" */
  dialect?: Dialect;
  /** The dialect of `sh` (the system's `/bin/sh`) where a command names it. @default "bash" */
  shDialect?: Dialect;
  /** Variables the caller sets in the command's environment (`execute`'s `env`). @default {} */
  env?: Readonly<Record<string, string>>;
}

/**
 * Finds the command names of a parsed command line. Scripts handed to shells (`bash -c`,
 * here-documents fed to `sh`, `env -S`, `git -c alias.x=!...`) are parsed with `parser`.
 * The variable policy applies to `env` as to the assignments in the command line.
 * The tree must be free of parse errors (`rootNode.hasError` false).
 */
export function extractCommandNames(
  root: SyntaxNode,
  parser: BashParser,
  options: ExtractOptions = {},
): ExtractResult {
  const { deadline = performance.now() + parser.timeoutMs, env = {}, dialect = "bash" } = options;
  const collector = new NameCollector(parser, {
    deadline,
    shDialect: options.shDialect,
    callerVariables: new Set(Object.keys(env)),
  });
  for (const [name, value] of Object.entries(env)) {
    collector.variableWrite(name, staticWord(value), 0);
  }
  const source = options.source ?? root.text;
  const offset = options.source === undefined ? root.startIndex : 0;
  collector.walk(root, { text: source, offset }, 0, dialect);
  return collector.result();
}
