import type { Invocation, Next } from "../command_reader.ts";
import { resolveIn, type RunContext } from "../run_context.ts";

/** Reads `find`: each `-exec`/`-ok` action runs a command with `{}` replaced by file names. */
export function readFind(call: Invocation): Next {
  const { collector, args, start, context } = call;
  let pendingDynamic = false;
  for (let i = start; i < args.length; i++) {
    const word = resolveIn(args[i], context);
    if (!("value" in word)) {
      if (word.splits) return collector.fail(`an argument of find contains ${word.dynamic}`);
      pendingDynamic = true;
      continue;
    }
    const text = word.value;
    if (text === ";" || text === "+") {
      if (pendingDynamic) {
        return collector.fail("an argument of find built at run time could start an -exec action");
      }
      continue;
    }
    if (!/^-(exec|execdir|ok|okdir)$/.test(text)) continue;
    let end = i + 1;
    for (; end < args.length; end++) {
      const part = resolveIn(args[end], context);
      if ("value" in part && (part.value === ";" || part.value === "+")) break;
    }
    const inner: RunContext = {
      ...context,
      stdin: null,
      nesting: context.nesting + 1,
      placeholder: { text: "{}", reason: "{}, which find replaces with file names" },
    };
    collector.run({ args: args.slice(i + 1, end), index: 0, keyword: false, context: inner });
    i = end;
  }
  return null;
}
