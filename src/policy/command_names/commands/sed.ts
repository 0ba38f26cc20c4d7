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

/**
 * Whether a sed script may run commands (GNU `e` command or `s///e` flag): returns why, or
 * null. Scripts this small reader cannot follow are reported too.
 */
function sedRunsCommands(script: string): string | null {
  const n = script.length;
  let i = 0;
  const blanks = () => {
    while (i < n && (script[i] === " " || script[i] === "\t")) i++;
  };
  const toLineEnd = () => {
    while (i < n && script[i] !== "\n") i++;
  };
  const delimited = (delimiter: string): boolean => {
    while (i < n && script[i] !== delimiter) {
      if (script[i] === "\\") i++;
      i++;
    }
    if (i >= n) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (/\d/.test(c)) {
      while (i < n && /[\d~]/.test(script[i])) i++;
    } else if (c === "$") i++;
    else if (c === "/" || c === "\\") {
      const delimiter = c === "\\" ? script[i + 1] : "/";
      i += c === "\\" ? 2 : 1;
      if (delimiter === undefined || !delimited(delimiter)) return false;
      while (i < n && /[IM]/.test(script[i])) i++;
    } else if (c === "+" || c === "~") {
      i++;
      while (i < n && /\d/.test(script[i])) i++;
    }
    return true;
  };
  while (i < n) {
    blanks();
    const c = script[i];
    if (c === undefined) break;
    if (c === "\n" || c === ";" || c === "}") {
      i++;
      continue;
    }
    if (c === "#") {
      toLineEnd();
      continue;
    }
    if (!address()) return "could not be read to check for the e command";
    blanks();
    if (script[i] === ",") {
      i++;
      blanks();
      if (!address()) return "could not be read to check for the e command";
    }
    blanks();
    while (script[i] === "!") {
      i++;
      blanks();
    }
    const command = script[i++];
    switch (command) {
      case "e":
        return "runs commands with the e command";
      case "s": {
        const delimiter = script[i++];
        if (delimiter === undefined || !delimited(delimiter) || !delimited(delimiter)) {
          return "could not be read to check for the e flag";
        }
        while (i < n && /[gpiImMe\d]/.test(script[i])) {
          if (script[i] === "e") return "runs commands with the s///e flag";
          i++;
        }
        if (script[i] === "w") toLineEnd();
        break;
      }
      case "y": {
        const delimiter = script[i++];
        if (delimiter === undefined || !delimited(delimiter) || !delimited(delimiter)) {
          return "could not be read to check for the e command";
        }
        break;
      }
      case "a":
      case "i":
      case "c":
        while (i < n && script[i] !== "\n") i += script[i] === "\\" ? 2 : 1;
        break;
      case ":":
      case "r":
      case "R":
      case "w":
      case "W":
        toLineEnd();
        break;
      case "b":
      case "t":
      case "T":
      case "v":
        while (i < n && script[i] !== "\n" && script[i] !== ";") i++;
        break;
      case "q":
      case "Q":
      case "l":
      case "L":
        blanks();
        while (i < n && /\d/.test(script[i])) i++;
        break;
      case "{":
      case "=":
      case "d":
      case "D":
      case "g":
      case "G":
      case "h":
      case "H":
      case "n":
      case "N":
      case "p":
      case "P":
      case "x":
      case "z":
      case "F":
        break;
      case undefined:
        return null;
      default:
        return "could not be read to check for the e command";
    }
  }
  return null;
}
