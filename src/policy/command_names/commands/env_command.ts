import type { Invocation, Next } from "../command_reader.ts";
import { resolveIn } from "../run_context.ts";
import { type Arg, staticWord, wordProblem } from "../words.ts";
import { writeOperand } from "./wrappers.ts";

/** Reads `env`: options, `NAME=VALUE` words, `-S` strings, then the command it runs. */
export function readEnv(call: Invocation): Next {
  const { collector, args, start, context } = call;
  let list = args;
  let i = start;
  while (i < list.length) {
    const word = resolveIn(list[i], context);
    const problem = wordProblem(word, "an argument of env");
    if (problem !== null || !("value" in word)) return collector.fail(problem ?? "");
    const step = envWord(call, list, i, word.value);
    i = step.next;
    if (step.stop === true) break;
    if (step.split === null) return null;
    if (step.split !== undefined) {
      const words = splitEnvString(step.split);
      if (words === null) return collector.fail("env -S has unbalanced quotes");
      list = [...words.map(staticWord), ...list.slice(i)];
      i = 0;
    }
  }
  if (i >= list.length) {
    return context.openEnded === null ? null : collector.fail(context.openEnded);
  }
  return { args: list, index: i, context: { ...context, nesting: context.nesting + 1 } };
}

/**
 * One word read: the index of the next, whether the command (or `--`) ended the options, and the
 * `-S` string it gave (undefined: none; null: refused, the reason recorded).
 */
interface EnvStep {
  next: number;
  stop?: boolean;
  split?: string | null;
}

/** Reads the word `text` at `i`: an option, `-` (the same as -i), or a `NAME=VALUE`. */
function envWord(call: Invocation, list: readonly Arg[], i: number, text: string): EnvStep {
  if (text === "--") return { next: i + 1, stop: true };
  if (text === "-") return { next: i + 1 };
  if (text.startsWith("--")) return envLongOption(call, list, i, text);
  if (text.length > 1 && text[0] === "-") return envShortOptions(call, list, i, text);
  // env sets every NAME=VALUE operand before the command, whatever the name.
  const eq = text.indexOf("=");
  if (eq < 0) return { next: i, stop: true };
  writeOperand(call, text.slice(0, eq), text.slice(eq + 1));
  return { next: i + 1 };
}

/** `--unset`, `--chdir`, `--split-string` (or a prefix), with `=VALUE` or the next word. */
function envLongOption(call: Invocation, list: readonly Arg[], i: number, text: string): EnvStep {
  const eq = text.indexOf("=");
  const option = text.slice(2, eq < 0 ? undefined : eq);
  const takesValue = ["unset", "chdir", "split-string"].find((n) => n.startsWith(option));
  if (takesValue === undefined || option.length === 0) return { next: i + 1 };
  const value = eq >= 0 ? staticWord(text.slice(eq + 1)) : list[i + 1];
  const split = takesValue === "split-string" ? envSplitValue(call, value) : undefined;
  if (takesValue === "unset" && value !== undefined) unsetVariable(call, value);
  return { next: eq < 0 ? i + 2 : i + 1, split };
}

/** Grouped short options: the first of `-u`, `-C`, `-S`, `-P` takes the rest or the next word. */
function envShortOptions(call: Invocation, list: readonly Arg[], i: number, text: string): EnvStep {
  const { collector, context } = call;
  for (let k = 1; k < text.length; k++) {
    const letter = text[k];
    if (!"uCSP".includes(letter)) continue;
    const attached = text.slice(k + 1);
    const value = attached.length > 0 ? staticWord(attached) : list[i + 1];
    const split = letter === "S" ? envSplitValue(call, value) : undefined;
    if (letter === "P") collector.variableWrite("PATH", null, context.nesting);
    if (letter === "u" && value !== undefined) unsetVariable(call, value);
    return { next: attached.length === 0 ? i + 2 : i + 1, split };
  }
  return { next: i + 1 };
}

/** `env -u NAME`: unsetting PATH changes what bare names run. */
function unsetVariable(call: Invocation, value: Arg): void {
  const word = resolveIn(value, call.context);
  if (!("value" in word) || word.value === "PATH") {
    call.collector.variableWrite("PATH", null, call.context.nesting);
  }
}

/** The string given to `env -S`, or null when it cannot be read (the reason is recorded). */
function envSplitValue(call: Invocation, value: Arg | undefined): string | null {
  const { collector, context } = call;
  if (value === undefined) return "";
  const word = resolveIn(value, context);
  if ("dynamic" in word) {
    collector.fail(`the string given to env -S contains ${word.dynamic}`);
    return null;
  }
  if (/[\\$]/.test(word.value)) {
    collector.fail("the string given to env -S uses escapes or variables");
    return null;
  }
  return word.value;
}

/** Splits an `env -S` string (without escapes or variables, which are rejected first). */
function splitEnvString(text: string): string[] | null {
  const words: string[] = [];
  let current: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "\n") {
      if (current !== null) words.push(current);
      current = null;
    } else if (c === "#" && current === null) {
      break;
    } else if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return null;
      current = (current ?? "") + text.slice(i + 1, end);
      i = end;
    } else current = (current ?? "") + c;
  }
  if (current !== null) words.push(current);
  return words;
}
