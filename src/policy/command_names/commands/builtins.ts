import { anyWord, type Invocation, type Next } from "../command_reader.ts";
import { scanOptions } from "../getopt.ts";
import { resolveIn } from "../run_context.ts";
import { readScriptArg } from "../embedded_scripts.ts";
import { resolve } from "../words.ts";

/** Commands that run a string or a file as code, which cannot be read statically. */
export const CODE_RUNNERS: Readonly<Record<string, string>> = {
  eval: "eval runs a string as code",
  source: "source runs a file as code",
  ".": ". runs a file as code",
  enable: "enable can load builtins from a shared object",
  alias: "aliases change what later names run",
  hash: "hash can bind a command name to another file",
};

/** Reads a code runner: refused, except the forms of `alias`, `hash`, `enable` that only ask. */
export function readCodeRunner(call: Invocation): Next {
  const { collector, name } = call;
  const has = (test: (value: string) => boolean) => anyWord(call, test);
  if (name === "alias" && !has((v) => v.includes("="))) return null;
  if (name === "hash" && !has((v) => /^-\w*p/.test(v))) return null;
  if (name === "enable" && !has((v) => /^-\w*f/.test(v))) return null;
  return collector.fail(CODE_RUNNERS[name]);
}

/** Reads `coproc [NAME] COMMAND`: the command word, or a group the grammar does not know. */
export function readCoproc(call: Invocation): Next {
  const { collector, args, start, context } = call;
  // `coproc NAME { ...; }` is not in the grammar: it reads `NAME { cmd` as arguments and the
  // group's later commands as separate commands, which the walk checks anyway.
  if (args[start + 1] === undefined) return { args, index: start, context };
  const second = resolve(args[start + 1]);
  if ("value" in second && second.value === "{") return { args, index: start + 2, context };
  if (!("value" in second) || /^[{(]/.test(second.value)) {
    return collector.fail(
      "coproc with a name and a compound command, which the grammar misreads",
    );
  }
  return { args, index: start, context };
}

/** Reads `trap ACTION SIGNAL...`: the action is a script. */
export function readTrap(call: Invocation): Next {
  const { collector, args, start, context } = call;
  const scan = scanOptions(args, start, {}, "trap");
  if ("unknown" in scan) return collector.fail(scan.unknown);
  if (scan.operands.length < 2) return null;
  const action = resolveIn(args[scan.operands[0]], context);
  if ("value" in action && action.value === "-") return null;
  return readScriptArg(call, args[scan.operands[0]], "the action given to trap", context.dialect);
}
