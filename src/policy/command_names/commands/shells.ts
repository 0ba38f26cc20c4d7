import { BASH_SHELLS } from "../../shell_grammar.ts";
import type { Invocation, Next } from "../command_reader.ts";
import { basename } from "../name_lists.ts";
import { scanOptions } from "../getopt.ts";
import { resolveIn } from "../run_context.ts";
import { DEVICE_FILES, readScriptArg, readStdinScript, STDIN_FILES } from "../embedded_scripts.ts";
import { type Arg, wordProblem } from "../words.ts";

/** Reads a bash-like shell's arguments: `-c SCRIPT`, a script file, or standard input. */
export function readShell(call: Invocation): Next {
  const { collector, name, args, context } = call;
  const options = shellOptions(call);
  if (options === null) return null;
  const { i, command, stdin } = options;
  const dialect = collector.shellDialect(name);
  if (command) return readScriptArg(call, args[i], `the script passed to ${name} -c`, dialect);
  if (stdin || i >= args.length) {
    if (context.openEnded !== null) return collector.fail(context.openEnded);
    return readStdinScript(call, name, true, dialect);
  }
  // `bash file`: the script file runs like `./file`, so its name is checked as a command.
  const word = resolveIn(args[i], context);
  const problem = wordProblem(word, `the script file run by ${name}`);
  if (problem !== null || !("value" in word)) return collector.fail(problem ?? "");
  if (STDIN_FILES.test(word.value)) return readStdinScript(call, name, true, dialect);
  if (DEVICE_FILES.test(word.value)) {
    return collector.fail(
      `${name} reads its script from ${word.value}, which the policy cannot see`,
    );
  }
  collector.addName(word.value);
  return null;
}

/**
 * The shell's options: the index of its first operand, and whether `-c` or `-s`/`-i` was given;
 * null when an option cannot be read (the reason is recorded).
 */
function shellOptions(call: Invocation): { i: number; command: boolean; stdin: boolean } | null {
  const { collector, name, args, start, context } = call;
  let command = false;
  let stdin = false;
  let i = start;
  for (; i < args.length; i++) {
    const word = resolveIn(args[i], context);
    // A quoted expansion is one word: the operand (script or file), reported below.
    if ("dynamic" in word && !word.splits) break;
    const problem = wordProblem(word, `an argument of ${name}`);
    if (problem !== null || !("value" in word)) return collector.fail(problem ?? "");
    const text = word.value;
    if (text === "--" || text === "-") {
      i++;
      break;
    }
    if (text.startsWith("--")) {
      if (text === "--rcfile" || text === "--init-file") i++;
      continue;
    }
    if (text.length < 2 || (text[0] !== "-" && text[0] !== "+")) break;
    for (const letter of text.slice(1)) {
      if (letter === "c") command = true;
      else if (letter === "s" || letter === "i") stdin = true;
      else if (letter === "o" || letter === "O") i++;
    }
  }
  return { i, command, stdin };
}

/** Reads `su` and `runuser`: a `-c` command, a command after `-u`, or a shell on stdin. */
export function readSu(call: Invocation): Next {
  const { collector, name, args, start, context } = call;
  const scan = scanOptions(args, start, {
    short: "cCsgGuw",
    long: [
      "command",
      "session-command",
      "shell",
      "group",
      "supp-group",
      "user",
      "whitelist-environment",
    ],
    permute: true,
  }, name);
  if ("unknown" in scan) return collector.fail(scan.unknown);
  let command: Arg | undefined;
  let user = false;
  for (const option of scan.options) {
    if (/^(-[cC]|--command|--session-command)$/.test(option.name)) command = option.value;
    if (option.name === "-s" || option.name === "--shell") {
      const shell = option.value === undefined ? null : resolveIn(option.value, context);
      if (shell === null || !("value" in shell)) {
        return collector.fail(`the shell given to ${name}`);
      }
      collector.addName(shell.value);
      if (!BASH_SHELLS.has(basename(shell.value).toLowerCase())) {
        return collector.fail(`${name} runs a shell that does not read bash`);
      }
    }
    if (option.name === "-u" || option.name === "--user") user = true;
  }
  if (command !== undefined) {
    return readScriptArg(call, command, `the command given to ${name} -c`);
  }
  if (user && scan.operands.length > 0) {
    return { args, index: scan.operands[0], context: { ...context, nesting: context.nesting + 1 } };
  }
  return readStdinScript(call, `the shell started by ${name}`, true);
}

/** Reads `script`: a `-c` command, else the shell it starts reads standard input. */
export function readScriptCommand(call: Invocation): Next {
  const { collector, args, start } = call;
  const scan = scanOptions(args, start, {
    short: "cEIOBTm",
    long: ["command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format"],
    permute: true,
  }, "script");
  if ("unknown" in scan) return collector.fail(scan.unknown);
  const command = scan.options.find((o) => o.name === "-c" || o.name === "--command");
  if (command !== undefined) {
    return readScriptArg(call, command.value, "the command given to script -c");
  }
  return readStdinScript(call, "the shell started by script", true);
}
