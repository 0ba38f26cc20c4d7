import type { Invocation, Next } from "../command_reader.ts";
import { scanOptions } from "../getopt.ts";
import { resolveIn, type RunContext } from "../run_context.ts";
import { staticWord } from "../words.ts";

const XARGS_OPTIONS = {
  short: "aEdILnPs",
  attached: "eil",
  long: ["arg-file", "delimiter", "max-args", "max-chars", "max-procs", "process-slot-var"],
};

/** Reads `xargs`: the command it runs gets words from input appended, or replaced in. */
export function readXargs(call: Invocation): Next {
  const { collector, args, start, context } = call;
  const scan = scanOptions(args, start, XARGS_OPTIONS, "xargs");
  if ("unknown" in scan) return collector.fail(scan.unknown);
  let replace: string | null = null;
  for (const option of scan.options) {
    if (option.name === "-I" || option.name === "-i" || option.name.startsWith("--replace")) {
      const word = option.value === undefined ? staticWord("") : resolveIn(option.value, context);
      if (!("value" in word)) {
        return collector.fail(`the xargs replace string contains ${word.dynamic}`);
      }
      replace = word.value === "" && option.name !== "-I" ? "{}" : word.value;
    }
  }
  const inner: RunContext = {
    ...context,
    stdin: null,
    nesting: context.nesting + 1,
    openEnded: replace === null
      ? "xargs appends its input as arguments, so the command may come from input"
      : null,
    placeholder: replace === null || replace === ""
      ? context.placeholder
      : { text: replace, reason: `${replace}, which xargs replaces with input` },
  };
  if (scan.operands.length === 0) {
    collector.addName("echo");
    return null;
  }
  return { args, index: scan.operands[0], context: inner };
}
