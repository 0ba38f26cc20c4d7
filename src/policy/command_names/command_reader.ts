import type { SyntaxNode } from "./bash_parser.ts";
import type { Dialect } from "./dialect.ts";
import { resolveIn, type RunContext } from "./run_context.ts";
import type { Arg } from "./words.ts";

/**
 * Where the command word of a wrapper is: `keyword` when bash would still recognise reserved
 * words there (the start of a command, or after `time`, `coproc`, `!`, `then`...).
 */
export interface Step {
  args: readonly Arg[];
  index: number;
  context: RunContext;
  keyword?: boolean;
}

/** The next command word to follow, or null when there is none. */
export type Next = Step | null;

/** What a command reader may ask of the collector reading the whole command line. */
export interface Collector {
  /** Records why a name cannot be known (the first reason wins); null, to return as `Next`. */
  fail(reason: string): null;
  /** Records a refusal whose message is complete (a refused variable); null, as `Next`. */
  refuse(message: string): null;
  /**
   * Records a name: a command word (`node`, recorded once however often it is read), or one
   * that no command-name node holds (a script file, a shell, `echo`).
   */
  addName(name: string, node?: SyntaxNode | null): void;
  /** Parses and walks a script that `dialect` reads (a shell's `-c`, a here-document...). */
  script(text: string, what: string, nesting: number, dialect: Dialect): void;
  /** The dialect of the shell a command names (`sh` is the system's `/bin/sh`). */
  shellDialect(name: string): Dialect;
  /** Follows a command word and the wrappers it names. */
  run(step: Step): void;
  /**
   * Applies the variable policy to setting `name`: `value` is the value given, or null when it
   * is set at run time (`read NAME`) or unset.
   */
  variableWrite(name: string, value: Arg | null, nesting: number): void;
}

/** A command whose arguments a command reader reads. */
export interface Invocation {
  collector: Collector;
  /** The basename of the command name, in lower case. */
  name: string;
  args: readonly Arg[];
  /** Index of the first argument after the command name. */
  start: number;
  context: RunContext;
}

/** Reads a command's arguments when they can name or contain other commands. */
export type CommandReader = (call: Invocation) => Next;

/** Whether any argument of the call is dynamic or passes `test`. */
export function anyWord(call: Invocation, test: (value: string) => boolean): boolean {
  const { args, start, context } = call;
  for (let i = start; i < args.length; i++) {
    const word = resolveIn(args[i], context);
    if (!("value" in word) || test(word.value)) return true;
  }
  return false;
}
