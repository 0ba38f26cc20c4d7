import type { Invocation, Next } from "../command_reader.ts";
import { hasOption, scanOptions } from "../getopt.ts";
import { resolveIn } from "../run_context.ts";
import type { Arg } from "../words.ts";

/** Reads `sed`: a script that can run commands (`e`, `s///e`) or is read from a file is refused. */
export function readSed(call: Invocation): Next {
  const { collector, name, args, start, context } = call;
  const scan = scanOptions(args, start, {
    short: "efl",
    attached: "i",
    long: ["expression", "file", "line-length"],
    permute: true,
  }, name);
  if ("unknown" in scan) return collector.fail(scan.unknown);
  if (hasOption(scan.options, "--sandbox")) return null;
  const scripts: Arg[] = [];
  for (const option of scan.options) {
    if (option.name === "-f" || option.name === "--file") {
      return collector.fail(`${name} -f reads a script that may run commands (the e command)`);
    }
    if ((option.name === "-e" || option.name === "--expression") && option.value !== undefined) {
      scripts.push(option.value);
    }
  }
  if (scripts.length === 0 && scan.operands.length > 0) scripts.push(args[scan.operands[0]]);
  for (const script of scripts) {
    const word = resolveIn(script, context);
    if (!("value" in word)) return collector.fail(`the ${name} script contains ${word.dynamic}`);
    const verdict = sedRunsCommands(word.value);
    if (verdict) return collector.fail(`the ${name} script ${verdict}`);
  }
  return null;
}

const UNREADABLE = "could not be read to check for the e command";
/** Commands that take no argument. */
const PLAIN_COMMANDS = new Set("{=dDgGhHnNpPxzF");

/**
 * Whether a sed script may run commands (GNU `e` command or `s///e` flag): returns why, or
 * null. Scripts this small reader cannot follow are reported too.
 */
function sedRunsCommands(script: string): string | null {
  return new SedScript(script).verdict();
}

/** A cursor over one sed script, command by command. */
class SedScript {
  #script: string;
  #i = 0;

  constructor(script: string) {
    this.#script = script;
  }

  verdict(): string | null {
    const script = this.#script;
    while (this.#i < script.length) {
      this.#blanks();
      const c = script[this.#i];
      if (c === undefined) break;
      if (c === "\n" || c === ";" || c === "}") {
        this.#i++;
        continue;
      }
      if (c === "#") {
        this.#toLineEnd();
        continue;
      }
      if (!this.#addresses()) return UNREADABLE;
      const command = script[this.#i++];
      if (command === undefined) return null;
      const verdict = this.#command(command);
      if (verdict !== null) return verdict;
    }
    return null;
  }

  /** Skips the command's arguments; why it may run commands, or null. */
  #command(command: string): string | null {
    switch (command) {
      case "e":
        return "runs commands with the e command";
      case "s":
        return this.#substitution();
      case "y":
        return this.#delimitedPair() ? null : UNREADABLE;
      case "a":
      case "i":
      case "c":
        this.#skipWhile((c) => c !== "\n", true);
        return null;
      case ":":
      case "r":
      case "R":
      case "w":
      case "W":
        this.#toLineEnd();
        return null;
      case "b":
      case "t":
      case "T":
      case "v":
        this.#skipWhile((c) => c !== "\n" && c !== ";");
        return null;
      case "q":
      case "Q":
      case "l":
      case "L":
        this.#blanks();
        this.#skipWhile((c) => /\d/.test(c));
        return null;
      default:
        return PLAIN_COMMANDS.has(command) ? null : UNREADABLE;
    }
  }

  /** `s/regex/replacement/flags`: the `e` flag runs the pattern space as a command. */
  #substitution(): string | null {
    if (!this.#delimitedPair()) return "could not be read to check for the e flag";
    const script = this.#script;
    while (this.#i < script.length && /[gpiImMe\d]/.test(script[this.#i])) {
      if (script[this.#i] === "e") return "runs commands with the s///e flag";
      this.#i++;
    }
    if (script[this.#i] === "w") this.#toLineEnd();
    return null;
  }

  /** An address, a second one after `,`, and any `!`; false when one cannot be read. */
  #addresses(): boolean {
    if (!this.#address()) return false;
    this.#blanks();
    if (this.#script[this.#i] === ",") {
      this.#i++;
      this.#blanks();
      if (!this.#address()) return false;
    }
    this.#blanks();
    while (this.#script[this.#i] === "!") {
      this.#i++;
      this.#blanks();
    }
    return true;
  }

  #address(): boolean {
    const c = this.#script[this.#i];
    if (c === undefined) return true;
    if (/\d/.test(c)) this.#skipWhile((next) => /[\d~]/.test(next));
    else if (c === "$") this.#i++;
    else if (c === "/" || c === "\\") {
      const delimiter = c === "\\" ? this.#script[this.#i + 1] : "/";
      this.#i += c === "\\" ? 2 : 1;
      if (delimiter === undefined || !this.#delimited(delimiter)) return false;
      this.#skipWhile((next) => /[IM]/.test(next));
    } else if (c === "+" || c === "~") {
      this.#i++;
      this.#skipWhile((next) => /\d/.test(next));
    }
    return true;
  }

  /** Two delimited parts after the delimiter that opens them (`s` and `y`). */
  #delimitedPair(): boolean {
    const delimiter = this.#script[this.#i++];
    return delimiter !== undefined && this.#delimited(delimiter) && this.#delimited(delimiter);
  }

  /** Skips to past the next unescaped `delimiter`; false when there is none. */
  #delimited(delimiter: string): boolean {
    const script = this.#script;
    while (this.#i < script.length && script[this.#i] !== delimiter) {
      if (script[this.#i] === "\\") this.#i++;
      this.#i++;
    }
    if (this.#i >= script.length) return false;
    this.#i++;
    return true;
  }

  #blanks(): void {
    this.#skipWhile((c) => c === " " || c === "\t");
  }

  #toLineEnd(): void {
    this.#skipWhile((c) => c !== "\n");
  }

  /** Skips characters while `test` holds; with `escapes`, a backslash takes the next one along. */
  #skipWhile(test: (c: string) => boolean, escapes = false): void {
    const script = this.#script;
    while (this.#i < script.length && test(script[this.#i])) {
      this.#i += escapes && script[this.#i] === "\\" ? 2 : 1;
    }
  }
}
