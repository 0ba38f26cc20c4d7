import { anyWord, type Invocation, type Next } from "../command_reader.ts";
import { DEVICE_FILES, readScriptArg, readStdinScript } from "../embedded_scripts.ts";
import { hasOption, scanOptions } from "../getopt.ts";
import { resolveIn } from "../run_context.ts";
import { writeOperand } from "./wrappers.ts";

/**
 * Programs that run commands or code given as text, from their arguments or their standard
 * input: build tools, editors, job runners, package runners.
 */

/** Programs refused whatever their arguments, with why. */
export const REFUSED_PROGRAMS: Readonly<Record<string, string>> = {
  parallel: "parallel builds the commands it runs from its arguments and input",
  tmux: "tmux runs commands given as text in a shell",
  screen: "screen runs commands given as text in a shell",
  capsh: "capsh runs a shell with the arguments after --",
  "systemd-run": "systemd-run starts commands through the service manager",
  run0: "run0 starts commands through the service manager",
  ed: "ed reads editor commands, which can run programs (!), from standard input",
  red: "red reads editor commands from standard input",
};

/** Reads a program of {@link REFUSED_PROGRAMS}: refused, unless it only prints its version. */
export function readRefusedProgram(call: Invocation): Next {
  const { collector, name } = call;
  if (!anyWord(call, (v) => !/^--?(version|help|V|h)$/.test(v)) && call.args.length > call.start) {
    return null;
  }
  return collector.fail(REFUSED_PROGRAMS[name]);
}

const MAKE_OPTIONS = {
  short: "CfIjlEoOW",
  long: [
    "directory",
    "file",
    "makefile",
    "include-dir",
    "jobs",
    "load-average",
    "eval",
    "old-file",
    "assume-old",
    "output-sync",
    "what-if",
    "new-file",
    "assume-new",
    "debug",
    "jobserver-style",
    "shuffle",
  ],
  permute: true,
};

/** Reads `make`: a makefile from standard input or a device, `--eval`, and `NAME=VALUE`. */
export function readMake(call: Invocation): Next {
  const { collector, name, args, start, context } = call;
  const scan = scanOptions(args, start, MAKE_OPTIONS, name);
  if ("unknown" in scan) return collector.fail(scan.unknown);
  for (const option of scan.options) {
    if (option.name === "-E" || option.name === "--eval") {
      return collector.fail(`${name} ${option.name} runs make code given as text`);
    }
    if (/^(-f|--file|--makefile)$/.test(option.name)) {
      const file = option.value === undefined ? null : resolveIn(option.value, context);
      if (
        file === null || !("value" in file) || file.value === "-" || DEVICE_FILES.test(file.value)
      ) {
        return collector.fail(`${name} ${option.name} reads a makefile the policy cannot see`);
      }
    }
  }
  for (const index of scan.operands) {
    const word = resolveIn(args[index], context);
    if (!("value" in word)) continue;
    const eq = word.value.indexOf("=");
    // `NAME=VALUE` operands set make variables, which recipes and the environment see.
    if (eq > 0) {
      writeOperand(call, word.value.slice(0, eq).replace(/[:+?!]$/, ""), word.value.slice(eq + 1));
    }
  }
  return null;
}

/** Reads `at` and `batch`: the commands come from standard input, or from a file with `-f`. */
export function readAt(call: Invocation): Next {
  const { collector, name, args, start } = call;
  const scan = scanOptions(args, start, { short: "qfut", permute: true }, name);
  if ("unknown" in scan) return collector.fail(scan.unknown);
  if (hasOption(scan.options, "-l -r -d -c -V")) return null;
  if (hasOption(scan.options, "-f")) {
    return collector.fail(`${name} -f runs the commands of a file`);
  }
  return readStdinScript(call, name, true, collector.shellDialect("sh"));
}

/** Reads `npx` and `npm exec`: `-c` runs a command line; else the first operand is run. */
export function readPackageRunner(call: Invocation): Next {
  const { collector, name, args, start, context } = call;
  let first = start;
  if (name === "npm") {
    const sub = args[start] === undefined ? null : resolveIn(args[start], context);
    if (sub === null || !("value" in sub) || !/^(exec|x)$/.test(sub.value)) return null;
    first = start + 1;
  }
  const scan = scanOptions(args, first, {
    short: "cpw",
    long: ["call", "package", "workspace"],
  }, name);
  if ("unknown" in scan) return collector.fail(scan.unknown);
  const call_ = scan.options.find((option) => option.name === "-c" || option.name === "--call");
  if (call_ !== undefined) {
    return readScriptArg(call, call_.value, `the command given to ${name} -c`, "bash");
  }
  if (scan.operands.length === 0) return null;
  return { args, index: scan.operands[0], context: { ...context, nesting: context.nesting + 1 } };
}

/** Reads `emacs`: `--eval`, `--execute` and `--funcall` run Lisp given as text. */
export function readEmacs(call: Invocation): Next {
  const { collector, name } = call;
  if (anyWord(call, (v) => /^--?(eval|execute|funcall|f|batch|script|x)(=|$)/.test(v))) {
    return collector.fail(`${name} runs Lisp code given as text or from a script`);
  }
  return null;
}

/** Reads `ip`: `ip netns exec NAME COMMAND` runs a command; `-batch` reads ip commands. */
export function readIp(call: Invocation): Next {
  const { collector, args, start, context } = call;
  for (let i = start; i < args.length; i++) {
    const word = resolveIn(args[i], context);
    if (!("value" in word)) return collector.fail(`an argument of ip contains ${word.dynamic}`);
    if (/^-(b|batch|force)$/.test(word.value)) {
      return collector.fail("ip -batch runs ip commands from a file");
    }
    if (word.value !== "netns" && word.value !== "vrf") continue;
    const verb = args[i + 1] === undefined ? null : resolveIn(args[i + 1], context);
    if (verb === null || !("value" in verb) || verb.value !== "exec") return null;
    const index = i + 3;
    if (index >= args.length) return null;
    return { args, index, context: { ...context, nesting: context.nesting + 1 } };
  }
  return null;
}

/** Reads `entr`: the utility runs on each change; with `-s` it is a shell command line. */
export function readEntr(call: Invocation): Next {
  const { collector, args, start, context } = call;
  const scan = scanOptions(args, start, { flags: { short: "acdnprszx", long: [] } }, "entr");
  if ("unknown" in scan) return collector.fail(scan.unknown);
  if (scan.operands.length === 0) return null;
  if (hasOption(scan.options, "-s")) {
    return readScriptArg(call, args[scan.operands[0]], "the command given to entr -s", "bash");
  }
  return { args, index: scan.operands[0], context: { ...context, nesting: context.nesting + 1 } };
}
