import { type Arg, resolve, staticWord, wordProblem } from "./words.ts";

/** The options of a command that take a value, and how it parses them. */
export interface OptionSpec {
  /** Short options taking a value, attached (`-uroot`) or as the next word. */
  short?: string;
  /** Short options whose value can only be attached (`xargs -i{}`); never the next word. */
  attached?: string;
  /** Long options (without `--`) taking a value, after `=` or as the next word. */
  long?: readonly string[];
  /** Keep scanning after operands (GNU argument permutation, popt). */
  permute?: boolean;
}

/** One option found by {@link scanOptions}. */
export interface ScannedOption {
  /** `-u` for short options, `--user` for long ones (abbreviations expanded when known). */
  name: string;
  value?: Arg;
}

/** The options and operand indexes of a command, or why they cannot be known. */
export type Scan = { options: ScannedOption[]; operands: number[] } | { unknown: string };

/** Scans the options of `who` from `args[start]` on, as getopt_long would. */
export function scanOptions(
  args: readonly Arg[],
  start: number,
  spec: OptionSpec,
  who: string,
): Scan {
  const options: ScannedOption[] = [];
  const operands: number[] = [];
  const { short = "", attached = "", long = [], permute = false } = spec;
  for (let i = start; i < args.length; i++) {
    const word = resolve(args[i]);
    if (!("value" in word)) {
      if (permute && !word.splits) {
        operands.push(i);
        continue;
      }
      return { unknown: `an argument of ${who} contains ${word.dynamic}` };
    }
    const problem = wordProblem(word, `an argument of ${who}`);
    if (problem !== null) return { unknown: problem };
    const text = word.value;
    if (text === "--") {
      for (let j = i + 1; j < args.length; j++) operands.push(j);
      return { options, operands };
    }
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const given = text.slice(2, eq < 0 ? undefined : eq);
      const name = long.includes(given) ? given : long.find((n) => n.startsWith(given));
      if (eq >= 0) {
        options.push({ name: `--${name ?? given}`, value: staticWord(text.slice(eq + 1)) });
      } else if (name !== undefined && given.length > 0) {
        options.push({ name: `--${name}`, value: args[i + 1] });
        i++;
      } else options.push({ name: text });
      continue;
    }
    if (text.length > 1 && text[0] === "-") {
      for (let k = 1; k < text.length; k++) {
        const letter = text[k];
        const rest = text.slice(k + 1);
        if (short.includes(letter)) {
          if (rest.length > 0) options.push({ name: `-${letter}`, value: staticWord(rest) });
          else {
            options.push({ name: `-${letter}`, value: args[i + 1] });
            i++;
          }
          break;
        }
        if (attached.includes(letter)) {
          options.push({ name: `-${letter}`, value: staticWord(rest) });
          break;
        }
        options.push({ name: `-${letter}` });
      }
      continue;
    }
    if (!permute) {
      for (let j = i; j < args.length; j++) operands.push(j);
      return { options, operands };
    }
    operands.push(i);
  }
  return { options, operands };
}

/** Whether an option named in the space-separated `names` was given. */
export function hasOption(options: readonly ScannedOption[], names: string): boolean {
  const wanted = names.split(" ");
  return options.some((option) => wanted.includes(option.name));
}
