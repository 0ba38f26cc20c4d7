import { anyWord, type Invocation, type Next } from "../command_reader.ts";
import { hasOption, type OptionSpec, type ScannedOption, scanOptions } from "../getopt.ts";
import { resolveIn, type RunContext } from "../run_context.ts";
import { DEVICE_FILES, readStdinScript } from "../embedded_scripts.ts";

/** Inline-code interpreters whose code is not bash. */
export interface InterpreterSpec extends OptionSpec {
  /** Short options whose value (attached or next) is inline code. */
  code: string;
  /** Long options whose value is inline code. */
  codeLong?: readonly string[];
  /** Options that name the program another way (`python -m mod`, `php -f file`). */
  program?: string;
  /** Options that print something and exit. */
  exits?: string;
  /** Why options that name code another way make the command unknown, or null. */
  check?: (options: readonly ScannedOption[], context: RunContext) => string | null;
}

/** Python modules that run code given as text or read it from standard input. */
const PYTHON_CODE_MODULES = new Set([
  "timeit",
  "pdb",
  "code",
  "runpy",
  "cProfile",
  "profile",
  "trace",
  "asyncio",
  "idlelib",
  "IPython",
]);

/** The static value of an option, or null. */
function optionValue(option: ScannedOption, context: RunContext): string | null {
  if (option.value === undefined) return "";
  const word = resolveIn(option.value, context);
  return "value" in word ? word.value : null;
}

function checkPython(options: readonly ScannedOption[], context: RunContext): string | null {
  for (const option of options) {
    if (option.name !== "-m") continue;
    const module = optionValue(option, context);
    if (module === null || PYTHON_CODE_MODULES.has(module.split(".")[0])) {
      return `python -m ${module ?? "(a module named at run time)"} runs code given as text`;
    }
  }
  return null;
}

function checkNode(options: readonly ScannedOption[], context: RunContext): string | null {
  for (const option of options) {
    if (!/^(-r|--require|--import|--loader|--experimental-loader)$/.test(option.name)) continue;
    const value = optionValue(option, context);
    if (value === null || /^(data|https?):/.test(value)) {
      return `node ${option.name} loads a module given as text or from the network`;
    }
  }
  return null;
}

function checkPerl(options: readonly ScannedOption[], context: RunContext): string | null {
  for (const option of options) {
    if (!/^-[Mmd]$/.test(option.name)) continue;
    const value = optionValue(option, context) ?? ";";
    const module = option.name === "-d" ? /^(:[\w:]+(=[\w,:]*)?)?$/ : /^-?[\w:]+(=[\w,:]*)?$/;
    if (!module.test(value)) return `perl ${option.name} runs code given with the module name`;
  }
  return null;
}

function checkVim(options: readonly ScannedOption[]): string | null {
  if (hasOption(options, "-e -E")) {
    return "vim -e reads Ex commands, which can run programs, from standard input";
  }
  return null;
}

/** Python and PyPy, whatever their version suffix. */
const PYTHON: InterpreterSpec = {
  check: checkPython,
  code: "c",
  short: "WXQm",
  long: ["check-hash-based-pycs"],
  program: "-m",
  exits: "-V -h -? --version --help",
};
const NODE: InterpreterSpec = {
  check: checkNode,
  code: "ep",
  codeLong: ["eval", "print"],
  short: "r",
  long: ["require", "import", "loader", "experimental-loader", "input-type", "conditions"],
  program: "--test --run --check -c",
  exits: "-v -h --version --help",
};
const PERL: InterpreterSpec = {
  check: checkPerl,
  code: "eE",
  short: "I",
  attached: "iMmFCxdDV",
  exits: "-v -V -h",
};
const VIM: InterpreterSpec = {
  check: checkVim,
  code: "cSs",
  codeLong: ["cmd"],
  short: "iTuUrtq",
  exits: "--version -h --help",
};
/** Interpreters by basename; `python3.12` and the like are found by {@link interpreterSpec}. */
const INTERPRETERS: Record<string, InterpreterSpec> = {
  python: PYTHON,
  python2: PYTHON,
  python3: PYTHON,
  pypy: PYTHON,
  pypy3: PYTHON,
  node: NODE,
  nodejs: NODE,
  perl: PERL,
  ruby: { code: "e", short: "IrCE", attached: "FKTWx", exits: "-v -h --version --help" },
  php: { code: "rRBE", short: "cdzt", program: "-f -F", exits: "-v -h -i -m" },
  lua: { code: "e", short: "l", exits: "-v" },
  luajit: { code: "e", short: "lbj", exits: "-v" },
  rscript: { code: "e", exits: "--version --help" },
  r: { code: "e", short: "f", program: "-f --file", exits: "--version --help" },
  osascript: { code: "e", short: "ls" },
  fish: {
    code: "cC",
    codeLong: ["command", "init-command"],
    short: "do",
    long: ["debug", "debug-output", "profile", "profile-startup", "features"],
    exits: "-v -h --version --help",
  },
  csh: { code: "c", exits: "--version --help" },
  tcsh: { code: "c", exits: "--version --help" },
  expect: { code: "c", short: "fD", program: "-f" },
  tclsh: { code: "" },
  wish: { code: "" },
  vim: VIM,
  vi: VIM,
  nvim: VIM,
  ex: VIM,
  view: VIM,
};

/** Editors take files, not programs: they never read code from standard input. */
const NO_STDIN_PROGRAM = new Set(["vim", "vi", "nvim", "ex", "view"]);

/** The interpreter a lower-case basename names, if any. */
export function interpreterSpec(base: string): InterpreterSpec | undefined {
  return (Object.hasOwn(INTERPRETERS, base) ? INTERPRETERS[base] : undefined) ??
    (/^(python|pypy)[\d.]*$/.test(base) ? PYTHON : undefined);
}

/** Reads an interpreter: inline code is refused, and so is code from standard input. */
export function readInterpreter(call: Invocation, spec: InterpreterSpec): Next {
  const { collector, name, args, start, context } = call;
  const codeLong = spec.codeLong ?? [];
  const scan = scanOptions(args, start, {
    short: spec.code + (spec.short ?? ""),
    attached: spec.attached,
    long: [...codeLong, ...(spec.long ?? [])],
  }, name);
  if ("unknown" in scan) return collector.fail(scan.unknown);
  for (const option of scan.options) {
    const letter = option.name.length === 2 ? option.name[1] : "";
    if (
      (letter !== "" && spec.code.includes(letter)) ||
      codeLong.includes(option.name.slice(2))
    ) {
      return collector.fail(`${name} ${option.name} runs code that is not bash`);
    }
  }
  const problem = spec.check?.(scan.options, context) ?? null;
  if (problem !== null) return collector.fail(problem);
  if (name === "ex") {
    return collector.fail("ex reads Ex commands, which can run programs, from standard input");
  }
  if (NO_STDIN_PROGRAM.has(name) && anyWord(call, (v) => v.startsWith("+"))) {
    return collector.fail(`${name} +command runs editor commands, which can run programs`);
  }
  const program = spec.program === undefined ? false : hasOption(scan.options, spec.program);
  const exits = spec.exits === undefined ? false : hasOption(scan.options, spec.exits);
  if (program || exits || NO_STDIN_PROGRAM.has(name)) return null;
  const first = scan.operands[0];
  if (first !== undefined) {
    const word = resolveIn(args[first], context);
    if (!("value" in word)) return null;
    if (word.value !== "-" && !DEVICE_FILES.test(word.value)) return null;
  }
  if (context.openEnded !== null && first === undefined) return collector.fail(context.openEnded);
  return readStdinScript(call, name, false);
}
