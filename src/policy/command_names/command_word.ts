import type { Collector, Next, Step } from "./command_reader.ts";
import { readerFor, takesAppendedInput } from "./commands/reader_table.ts";
import { basename } from "./name_lists.ts";
import { RESERVED_BEFORE_COMMAND, RESERVED_OTHER } from "./reserved_words.ts";
import { resolveIn, type RunContext } from "./run_context.ts";
import { wordProblem } from "./words.ts";

/**
 * Records the command word at the step, and finds the one it runs in turn, if any: the command
 * a wrapper names, or the word after a reserved word the grammar left as a plain word.
 */
export function followCommandWord(collector: Collector, step: Step): Next {
  const { args, index, context } = step;
  const keyword = step.keyword === true;
  if (index >= args.length) {
    return context.openEnded === null ? null : collector.fail(context.openEnded);
  }
  const arg = args[index];
  const word = resolveIn(arg, context);
  const problem = wordProblem(word, "the command name");
  if (problem !== null || !("value" in word)) return collector.fail(problem ?? "");
  const name = word.value;
  // The grammar does not know `time { ...; }` or `coproc NAME { ...; }`: it leaves the
  // reserved words as plain words, which bash would not run as commands.
  const reserved = keyword && "node" in arg && arg.node.text === name;
  if (reserved && RESERVED_BEFORE_COMMAND.has(name)) {
    return { args, index: index + 1, context: deeper(context), keyword: true };
  }
  if (reserved && RESERVED_OTHER.has(name)) return null;
  collector.addName(name, "node" in arg ? arg.node : null);
  const base = basename(name).toLowerCase();
  const rest = index + 1;
  const reader = readerFor(base);
  if (reader === null) return null;
  // Input appended to an argument-reading program could add `-c`, `-exec` or a command.
  if (context.openEnded !== null && !takesAppendedInput(base)) {
    return collector.fail(`${context.openEnded} (${base} reads it)`);
  }
  if (reserved && name === "time") {
    // The `time` keyword takes only `-p`; anything else starting with `-` is the command.
    let i = rest;
    for (const option of ["-p", "--"]) {
      const word = args[i] === undefined ? null : resolveIn(args[i], context);
      if (word !== null && "value" in word && word.value === option) i++;
    }
    return { args, index: i, context: deeper(context), keyword: true };
  }
  const next = reader({ collector, name: base, args, start: rest, context });
  // `coproc` is a reserved word itself: a group may follow.
  if (next !== null && reserved && name === "coproc") next.keyword = true;
  return next;
}

/** The context one level of nesting further in. */
function deeper(context: RunContext): RunContext {
  return { ...context, nesting: context.nesting + 1 };
}
