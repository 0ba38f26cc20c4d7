import type { ArithmeticTracker } from "./arithmetic.ts";
import type { SyntaxNode } from "./bash_parser.ts";
import type { Dialect } from "./dialect.ts";
import { type Arg, resolve, type Script, type Word } from "./words.ts";

/** How the command at hand gets its arguments and standard input. */
export interface RunContext {
  script: Script;
  /** The command node whose redirections feed standard input; null when input is unknown. */
  stdin: SyntaxNode | null;
  /** Set when more words are appended at run time (`xargs`): the reason. */
  openEnded: string | null;
  /** A substring replaced at run time (`{}` of `find -exec`, `xargs -I R`), and the reason. */
  placeholder: { text: string; reason: string } | null;
  nesting: number;
  /** The shell reading the script: bash evaluates data that looks like code. */
  dialect: Dialect;
  /** The arithmetic of the script under bash, to check; null under a POSIX shell. */
  arithmetic: ArithmeticTracker | null;
}

/** An argument's value as the command receives it: a word holding a placeholder is dynamic. */
export function resolveIn(arg: Arg, context: RunContext): Word {
  const word = resolve(arg);
  const holder = context.placeholder;
  if (holder !== null && "value" in word && word.value.includes(holder.text)) {
    return { dynamic: holder.reason, splits: true };
  }
  return word;
}
