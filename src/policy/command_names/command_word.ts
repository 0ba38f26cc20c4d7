import type { Collector, Next, Step } from "./command_reader.ts";
import { readerFor, takesAppendedInput } from "./commands/reader_table.ts";
import { basename } from "./name_lists.ts";
import { BASH_RESERVED, RESERVED_BEFORE_COMMAND, RESERVED_OTHER } from "./reserved_words.ts";
import { resolveIn, type RunContext } from "./run_context.ts";
import { staticWord, wordProblem } from "./words.ts";

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
  const assigned = keyword ? assignmentAfterKeyword(collector, step, name) : null;
  if (assigned !== null) return assigned;
  // The grammar does not know `time { ...; }` or `coproc NAME { ...; }`: it leaves the
  // reserved words as plain words, which bash would not run as commands.
  const reserved = keyword && "node" in arg && arg.node.text === name;
  if (reserved && RESERVED_BEFORE_COMMAND.has(name)) {
    return { args, index: index + 1, context: deeper(context), keyword: true };
  }
  // dash has no `[[`, `function` or `select`: to it they are command names.
  const posixName = context.dialect === "posix" && BASH_RESERVED.has(name);
  if (reserved && RESERVED_OTHER.has(name) && !posixName) return null;
  collector.addName(name, "node" in arg ? arg.node : null);
  const base = basename(name).toLowerCase();
  const rest = index + 1;
  const reader = readerFor(base);
  if (reader === null) return null;
  // Input appended to an argument-reading program could add `-c`, `-exec` or a command.
  if (context.openEnded !== null && !takesAppendedInput(base)) {
    return collector.fail(`${context.openEnded} (${base} reads it)`);
  }
  if (reserved && name === "time") return afterTime(step);
  const next = reader({ collector, name: base, args, start: rest, context });
  // `coproc` is a reserved word itself: a group may follow.
  if (next !== null && reserved && name === "coproc") next.keyword = true;
  return next;
}

/**
 * After `time`, the grammar leaves assignments as plain words (`time FOO=1 x`); to bash they are
 * assignments, and a reserved word after one is a plain name. Only an unquoted name makes an
 * assignment: `'q'a=1` is a command name. The step past the assignment, or null for none.
 */
function assignmentAfterKeyword(collector: Collector, step: Step, name: string): Step | null {
  const { args, index, context } = step;
  const arg = args[index];
  const raw = "node" in arg ? arg.node.text : "";
  const assignment = /^([A-Za-z_]\w*)(\[[^\]]*\])?\+?=/.exec(raw);
  if (assignment === null) return null;
  collector.variableWrite(
    assignment[1],
    staticWord(name.slice(assignment[0].length)),
    context.nesting,
  );
  return { args, index: index + 1, context, keyword: false };
}

/** The step after the `time` keyword at `step`, which takes only `-p`: `-x` is the command. */
function afterTime(step: Step): Step {
  const { args, index, context } = step;
  const arg = args[index];
  let i = index + 1;
  for (const option of ["-p", "--"]) {
    const word = args[i] === undefined ? null : resolveIn(args[i], context);
    if (word !== null && "value" in word && word.value === option) i++;
  }
  // After a redirection (`time >f ]]`) a reserved word is a plain name.
  const after = args[i];
  const { text, offset } = context.script;
  const redirected = after !== undefined && "node" in arg && "node" in after &&
    /[<>]/.test(text.slice(arg.node.endIndex - offset, after.node.startIndex - offset));
  return { args, index: i, context: deeper(context), keyword: !redirected };
}

/** The context one level of nesting further in. */
function deeper(context: RunContext): RunContext {
  return { ...context, nesting: context.nesting + 1 };
}
