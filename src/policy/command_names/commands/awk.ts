import type { Invocation, Next } from "../command_reader.ts";
import { scanOptions } from "../getopt.ts";
import { resolveIn } from "../run_context.ts";
import type { Arg } from "../words.ts";

/** Reads `awk`: a program that can run commands, or that is loaded from a file, is refused. */
export function readAwk(call: Invocation): Next {
  const { collector, name, args, start, context } = call;
  const scan = scanOptions(args, start, {
    short: "FvfEeil",
    long: ["field-separator", "assign", "file", "exec", "source", "include", "load"],
  }, name);
  if ("unknown" in scan) return collector.fail(scan.unknown);
  const programs: Arg[] = [];
  for (const option of scan.options) {
    if (/^(-[fEil]|--(file|exec|include|load))$/.test(option.name)) {
      return collector.fail(`${name} ${option.name} loads program code from a file`);
    }
    if ((option.name === "-e" || option.name === "--source") && option.value !== undefined) {
      programs.push(option.value);
    }
  }
  if (programs.length === 0 && scan.operands.length > 0) programs.push(args[scan.operands[0]]);
  for (const program of programs) {
    const word = resolveIn(program, context);
    if (!("value" in word)) return collector.fail(`the ${name} program contains ${word.dynamic}`);
    if (awkRunsCommands(word.value)) {
      return collector.fail(`the ${name} program can run commands through system() or a pipe`);
    }
  }
  return null;
}

/**
 * Whether an awk program may run commands: `system(...)`, `cmd | getline`, `print | cmd`,
 * `|&`, `@load`/`@include`, or an indirect call `@name()` (gawk), which can name system.
 * Strings, comments and regular-expression literals are skipped; a line continuation is
 * joined first, since awk reads `system\<newline>(` as a call.
 */
function awkRunsCommands(source: string): boolean {
  const program = source.replace(/\\\r?\n/g, " ");
  let code = "";
  // A `/` after an operand divides; anywhere else (a new line included) it opens a regex.
  let previous = "\n";
  for (let i = 0; i < program.length; i++) {
    const c = program[i];
    if (c === '"') {
      i++;
      while (i < program.length && program[i] !== '"') i += program[i] === "\\" ? 2 : 1;
      code += '""';
      previous = '"';
      continue;
    }
    if (c === "#") {
      while (i < program.length && program[i] !== "\n") i++;
      code += "\n";
      previous = "\n";
      continue;
    }
    if (c === "/" && /[(,~!{};&|:?\n]/.test(previous)) {
      i++;
      let bracket = false;
      while (i < program.length && (bracket || program[i] !== "/") && program[i] !== "\n") {
        if (program[i] === "[") bracket = true;
        else if (program[i] === "]") bracket = false;
        i += program[i] === "\\" ? 2 : 1;
      }
      code += "//";
      previous = "/";
      continue;
    }
    code += c;
    if (c === "\n" || !/\s/.test(c)) previous = c;
  }
  return /\bsystem\s*\(|@\s*[A-Za-z_]/.test(code) || /\|/.test(code.replaceAll("||", ""));
}
