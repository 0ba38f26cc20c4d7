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
  /**
   * The options without a value, when every option of the command is listed: short letters
   * and long names (a long name may still take `=value`, as optional arguments do). An option
   * in none of the lists then makes the scan unknown, since its value could be the command.
   */
  flags?: { short: string; long: readonly string[] };
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
  const { permute = false } = spec;
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
    if (text === "--") return { options, operands: withRest(operands, i + 1, args.length) };
    const step = optionStep(text, args[i + 1], spec);
    if (step === null) {
      if (!permute) return { options, operands: withRest(operands, i, args.length) };
      operands.push(i);
      continue;
    }
    if ("unknown" in step) return { unknown: `${who} ${step.unknown}` };
    options.push(...step.found);
    if (step.usesNext) i++;
  }
  return { options, operands };
}

type Step = { found: ScannedOption[]; usesNext: boolean } | { unknown: string };

/** `operands` and then every index from `from` to `end`. */
function withRest(operands: number[], from: number, end: number): number[] {
  for (let j = from; j < end; j++) operands.push(j);
  return operands;
}

/** The options the word `text` gives (long, or grouped short ones), or null for an operand. */
function optionStep(text: string, next: Arg | undefined, spec: OptionSpec): Step | null {
  if (text.startsWith("--")) return longOption(text, next, spec);
  return text.length > 1 && text[0] === "-" ? shortOptions(text, next, spec) : null;
}

function longOption(text: string, next: Arg | undefined, spec: OptionSpec): Step {
  const { long = [], flags } = spec;
  const eq = text.indexOf("=");
  const given = text.slice(2, eq < 0 ? undefined : eq);
  const valued = long.includes(given) ? given : unique(long, given);
  const flag = flags === undefined
    ? undefined
    : (flags.long.includes(given) ? given : unique(flags.long, given));
  if (flags !== undefined && valued === undefined && flag === undefined) {
    return { unknown: `has an option the policy does not know (--${given})` };
  }
  const name = `--${valued ?? flag ?? given}`;
  if (eq >= 0) return { found: [{ name, value: staticWord(text.slice(eq + 1)) }], usesNext: false };
  if (valued !== undefined && given.length > 0) {
    return { found: [{ name, value: next }], usesNext: true };
  }
  return { found: [{ name }], usesNext: false };
}

/** The one name in `names` that `given` abbreviates, if any. */
function unique(names: readonly string[], given: string): string | undefined {
  if (given.length === 0) return undefined;
  const matches = names.filter((name) => name.startsWith(given));
  return matches.length === 1 ? matches[0] : undefined;
}

function shortOptions(text: string, next: Arg | undefined, spec: OptionSpec): Step {
  const { short = "", attached = "", flags } = spec;
  const found: ScannedOption[] = [];
  for (let k = 1; k < text.length; k++) {
    const letter = text[k];
    const rest = text.slice(k + 1);
    if (short.includes(letter)) {
      if (rest.length > 0) found.push({ name: `-${letter}`, value: staticWord(rest) });
      else return { found: [...found, { name: `-${letter}`, value: next }], usesNext: true };
      break;
    }
    if (attached.includes(letter)) {
      found.push({ name: `-${letter}`, value: staticWord(rest) });
      break;
    }
    if (flags !== undefined && !flags.short.includes(letter)) {
      return { unknown: `has an option the policy does not know (-${letter})` };
    }
    found.push({ name: `-${letter}` });
  }
  return { found, usesNext: false };
}

/** Whether an option named in the space-separated `names` was given. */
export function hasOption(options: readonly ScannedOption[], names: string): boolean {
  const wanted = names.split(" ");
  return options.some((option) => wanted.includes(option.name));
}
