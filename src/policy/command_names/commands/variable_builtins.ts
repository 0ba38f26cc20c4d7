import type { Invocation, Next } from "../command_reader.ts";
import { hasOption, scanOptions } from "../getopt.ts";
import { resolveIn } from "../run_context.ts";
import { staticWord } from "../words.ts";

/**
 * Builtins that set the variables their arguments name (`read NAME`, `printf -v NAME`,
 * `getopts OPTS NAME`, `wait -p NAME`, `let NAME=1`, `export NAME=1` after `command`): the
 * variable policy applies to those names, and under bash their subscripts are arithmetic.
 */

/** Options taking a value, and where the names are, for each builtin. */
const NAME_BUILTINS: Readonly<
  Record<string, { short: string; names: "operands" | "option" | "second"; option?: string }>
> = {
  read: { short: "adinNptu", names: "operands", option: "-a" },
  printf: { short: "v", names: "option", option: "-v" },
  getopts: { short: "", names: "second" },
  wait: { short: "p", names: "option", option: "-p" },
};

/** Reads `read`, `printf`, `getopts`, `wait`: the variables they set. */
export function readNameBuiltin(call: Invocation): Next {
  const { collector, name, args, start, context } = call;
  const spec = NAME_BUILTINS[name];
  const scan = scanOptions(args, start, { short: spec.short }, name);
  if ("unknown" in scan) return collector.fail(scan.unknown);
  const targets = [];
  for (const option of scan.options) {
    if (option.name === spec.option && option.value !== undefined) targets.push(option.value);
  }
  if (spec.names === "operands") targets.push(...scan.operands.map((i) => args[i]));
  if (spec.names === "second" && scan.operands.length > 1) targets.push(args[scan.operands[1]]);
  for (const target of targets) {
    const word = resolveIn(target, context);
    if (!("value" in word)) {
      collector.fail(`${name} sets a variable whose name is set at run time`);
      continue;
    }
    const base = word.value.replace(/\[.*$/s, "");
    collector.variableWrite(base, null, context.nesting);
    context.arithmetic?.write(base, null, 0);
    context.arithmetic?.nameArgument(word.value, 0, `${name} ${word.value}`);
  }
  return null;
}

/** Reads `let EXPRESSION...`: arithmetic, which may set variables. */
export function readLet(call: Invocation): Next {
  const { collector, args, start, context } = call;
  for (let i = start; i < args.length; i++) {
    const word = resolveIn(args[i], context);
    if (!("value" in word)) {
      if (context.arithmetic !== null) {
        return collector.fail(`under bash, let evaluates ${word.dynamic} as arithmetic`);
      }
      continue;
    }
    arithmeticWrites(call, word.value);
    context.arithmetic?.use(word.value, 0, "let");
  }
  return null;
}

/** Applies the variable policy to the variables arithmetic text assigns (`PATH=1`, `i++`). */
export function arithmeticWrites(call: Pick<Invocation, "collector" | "context">, text: string) {
  const { collector, context } = call;
  for (const match of text.matchAll(/([A-Za-z_]\w*)\s*(?:\+\+|--|[-+*/%&|^]?=(?!=)|<<=|>>=)/g)) {
    collector.variableWrite(match[1], null, context.nesting);
  }
}

/** Reads `test` and `[` under bash: `-v NAME` evaluates a subscript of NAME. */
export function readTestCommand(call: Invocation): Next {
  const { collector, args, start, context } = call;
  const arithmetic = context.arithmetic;
  if (arithmetic === null) return null;
  for (let i = start; i < args.length; i++) {
    const word = resolveIn(args[i], context);
    if (!("value" in word) || word.value !== "-v") continue;
    const operand = args[i + 1] === undefined ? null : resolveIn(args[i + 1], context);
    if (operand === null) continue;
    if (!("value" in operand)) {
      return collector.fail("under bash, test -v reads a variable whose name is set at run time");
    }
    arithmetic.nameArgument(operand.value, 0, "test -v");
  }
  return null;
}

/**
 * Reads `export`, `declare`, `typeset`, `local`, `readonly` where they are a command word
 * (`command export PATH=/x`), not a declaration the grammar knows.
 */
export function readDeclarationBuiltin(call: Invocation): Next {
  const { collector, name, args, start, context } = call;
  const scan = scanOptions(args, start, {}, name);
  if ("unknown" in scan) return collector.fail(scan.unknown);
  if (hasOption(scan.options, "-n")) {
    return collector.fail(`${name} -n makes a name refer to any variable`);
  }
  for (const index of scan.operands) {
    const word = resolveIn(args[index], context);
    if (!("value" in word)) {
      collector.fail(`an argument of ${name} contains ${word.dynamic}`);
      continue;
    }
    const eq = word.value.indexOf("=");
    const base = (eq < 0 ? word.value : word.value.slice(0, eq)).replace(/\+$|\[.*$/s, "");
    const value = eq < 0 ? null : staticWord(word.value.slice(eq + 1));
    if (value !== null || (name !== "export" && name !== "readonly")) {
      collector.variableWrite(base, value, context.nesting);
    }
    context.arithmetic?.write(base, eq < 0 ? null : word.value.slice(eq + 1), 0);
    context.arithmetic?.nameArgument(eq < 0 ? word.value : word.value.slice(0, eq), 0, name);
  }
  return null;
}
