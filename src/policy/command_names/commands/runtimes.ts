import { anyWord, type Invocation, type Next } from "../command_reader.ts";
import { resolveIn } from "../run_context.ts";
import { readStdinScript, STDIN_FILES } from "../embedded_scripts.ts";

/** Reads `deno` and `bun`: subcommands that run inline code or read it from standard input. */
export function readJsRuntime(call: Invocation): Next {
  const { collector, name, args, start, context } = call;
  const first = args[start] === undefined ? null : resolveIn(args[start], context);
  if (first === null) {
    return collector.fail(`${name} without arguments reads code from standard input`);
  }
  if (!("value" in first)) {
    return collector.fail(`the ${name} subcommand contains ${first.dynamic}`);
  }
  const sub = first.value;
  if (sub === "eval" || sub === "-e" || sub === "--eval" || sub === "-p" || sub === "--print") {
    return collector.fail(`${name} ${sub} runs inline code that is not bash`);
  }
  if (sub === "repl") return collector.fail(`${name} repl reads code from standard input`);
  // `deno run data:...`, `deno run - <<EOF`, `bun run /dev/stdin`: code given as text.
  if (anyWord(call, (v) => v === "-" || /^data:/.test(v) || STDIN_FILES.test(v))) {
    return collector.fail(`${name} runs code given as text or read from standard input`);
  }
  return null;
}

/** Reads PowerShell: `-Command` runs inline code, no file means code from standard input. */
export function readPowershell(call: Invocation): Next {
  const { collector, name, args, start, context } = call;
  for (let i = start; i < args.length; i++) {
    const word = resolveIn(args[i], context);
    if (!("value" in word)) {
      return collector.fail(`an argument of ${name} contains ${word.dynamic}`);
    }
    const text = word.value.toLowerCase();
    if (!text.startsWith("-")) return null;
    if (/^-(c|co|com|comm|comma|comman|command|commandwithargs|cwa|e|ec|en\w*)$/.test(text)) {
      return collector.fail(`${name} ${word.value} runs inline code that is not bash`);
    }
    if (/^-f(i|il|ile)?$/.test(text)) return null;
  }
  return readStdinScript(call, name, false);
}

/** Reads `gdb`: debugger commands given as options can run programs. */
export function readGdb(call: Invocation): Next {
  const { collector } = call;
  const commands = /^--?(ex|iex|eval-command|init-eval-command|x|ix|command|init-command)(=|$)/;
  if (anyWord(call, (v) => commands.test(v))) {
    return collector.fail("gdb runs debugger commands, which can run programs");
  }
  return null;
}
