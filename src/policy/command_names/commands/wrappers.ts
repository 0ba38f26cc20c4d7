import type { Invocation, Next } from "../command_reader.ts";
import { hasOption, type Scan, scanOptions } from "../getopt.ts";
import { EXEC_WRAPPERS, loaderSpec } from "./exec_wrappers.ts";
import type { WrapperSpec } from "./wrapper_spec.ts";
import { resolveIn } from "../run_context.ts";
import { readJoinedScript, readScriptArg, readStdinScript } from "../embedded_scripts.ts";
import { variableRule } from "../variable_policy.ts";
import { staticWord } from "../words.ts";

// Private, read through wrapperSpec; exported, its `"close-from"` entry would also trip the
// import pattern of scripts/check_layers.ts, which would read `export ... from",` as an import.
/** Commands whose operands name another command to run, with their options. */
const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    short: "aCcDghpRrTtUu",
    long: [
      "auth-type",
      "chdir",
      "chroot",
      "close-from",
      "command-timeout",
      "group",
      "host",
      "login-class",
      "other-user",
      "prompt",
      "role",
      "type",
      "user",
    ],
    queries: "-e -K -l -V -v --edit --remove-timestamp --list --version --validate --help",
    assignments: true,
    shell: "-i -s --login --shell",
  },
  doas: { short: "Cu", flags: { short: "nsL", long: [] }, queries: "-C -L", shell: "-s" },
  nohup: { flags: { short: "", long: ["help", "version"] }, queries: "--help --version" },
  // `nice -5`: the obsolete form of -n 5.
  nice: {
    short: "n",
    long: ["adjustment"],
    flags: { short: "0123456789", long: ["help", "version"] },
    queries: "--help --version",
  },
  timeout: {
    short: "sk",
    long: ["kill-after", "signal"],
    flags: { short: "v", long: ["preserve-status", "foreground", "verbose", "help", "version"] },
    queries: "--help --version",
    operands: 1,
  },
  time: {
    short: "fo",
    long: ["format", "output"],
    flags: {
      short: "apqvV",
      long: ["append", "portability", "quiet", "verbose", "help", "version"],
    },
    queries: "-V --help --version",
  },
  exec: { short: "a", flags: { short: "cl", long: [] } },
  command: { flags: { short: "pvV", long: [] }, queries: "-v -V" },
  builtin: {},
  stdbuf: {
    short: "ioe",
    long: ["error", "input", "output"],
    flags: { short: "", long: ["help", "version"] },
    queries: "--help --version",
  },
  setsid: {
    flags: { short: "cfwhV", long: ["ctty", "fork", "wait", "help", "version"] },
    queries: "-h -V --help --version",
  },
  chroot: {
    long: ["groups", "userspec"],
    flags: { short: "", long: ["skip-chdir", "help", "version"] },
    queries: "--help --version",
    operands: 1,
    bareShell: true,
  },
  strace: {
    short: "abeEIoOpPsSuUX",
    long: ["attach", "columns", "env", "output", "signal", "string-limit", "trace", "user"],
  },
  ltrace: { short: "aADeFlnopsuwx", long: ["output", "library"] },
  busybox: {},
  ionice: {
    short: "cnpPu",
    long: ["class", "classdata", "pid", "pgid", "uid"],
    flags: { short: "thV", long: ["ignore", "help", "version"] },
    queries: "-p -P -u -h -V --pid --pgid --uid --help --version",
  },
  taskset: {
    flags: { short: "apchV", long: ["all-tasks", "pid", "cpu-list", "help", "version"] },
    queries: "-p --pid -h -V --help --version",
    operands: 1,
  },
  chrt: {
    short: "TPD",
    long: ["sched-runtime", "sched-period", "sched-deadline"],
    flags: {
      short: "bdfioRramvphV",
      long: [
        "batch",
        "deadline",
        "fifo",
        "idle",
        "other",
        "rr",
        "reset-on-fork",
        "all-tasks",
        "max",
        "pid",
        "verbose",
        "help",
        "version",
      ],
    },
    queries: "-p -m --pid --max -h -V --help --version",
    operands: 1,
  },
  flock: {
    short: "wE",
    long: ["timeout", "conflict-exit-code"],
    flags: {
      short: "sexnoFuhV",
      long: [
        "shared",
        "exclusive",
        "unlock",
        "nonblock",
        "close",
        "no-fork",
        "verbose",
        "help",
        "version",
      ],
    },
    operands: 1,
    scriptAfterOperands: ["-c", "--command"],
  },
  noglob: {},
  nocorrect: {},
  "-": {},
  unbuffer: {},
  caffeinate: { short: "tw" },
  pkexec: { long: ["user"] },
  mapfile: { short: "dnOsuCc", scripts: "-C" },
  readarray: { short: "dnOsuCc", scripts: "-C" },
  compgen: { short: "AGWXPSFCo", scripts: "-C" },
  complete: { short: "AGWXPSFCo", scripts: "-C" },
};

/** The wrapper a lower-case basename names, if any. */
export function wrapperSpec(base: string): WrapperSpec | undefined {
  if (Object.hasOwn(WRAPPERS, base)) return WRAPPERS[base];
  if (Object.hasOwn(EXEC_WRAPPERS, base)) return EXEC_WRAPPERS[base];
  return loaderSpec(base);
}

/** Wrappers whose operands are never a command (`mapfile`): scripts in options only. */
const NO_COMMAND = new Set(["mapfile", "readarray", "compgen", "complete"]);

type Scanned = Exclude<Scan, { unknown: string }>;

/** Reads a wrapper's options and finds the command it runs, if any. */
export function readWrapper(call: Invocation, spec: WrapperSpec): Next {
  const { collector, name, args, start, context } = call;
  // `setarch ARCH [options]`, but `setarch --list`.
  const first = args[start] === undefined ? null : resolveIn(args[start], context);
  const leading = first !== null && "value" in first && first.value.startsWith("-")
    ? 0
    : spec.leading ?? 0;
  const scan = scanOptions(args, start + leading, spec, name);
  if ("unknown" in scan) return collector.fail(scan.unknown);
  if (!readWrapperOptions(call, spec, scan)) return null;
  if (NO_COMMAND.has(name)) return readNoCommandOperands(call, scan);
  if (spec.queries !== undefined && hasOption(scan.options, spec.queries)) return null;
  const operands = scan.operands;
  const k = commandOperand(call, spec, scan);
  if (k > operands.length) {
    return context.openEnded === null ? null : collector.fail(context.openEnded);
  }
  if (spec.scriptAfterOperands !== undefined && k < operands.length) {
    const word = resolveIn(args[operands[k]], context);
    if ("value" in word && spec.scriptAfterOperands.includes(word.value)) {
      return readScriptArg(
        call,
        args[operands[k] + 1],
        `the command given to ${name} ${word.value}`,
      );
    }
  }
  if (k >= operands.length) {
    if (context.openEnded !== null) return collector.fail(context.openEnded);
    if (spec.bareShell || (spec.shell !== undefined && hasOption(scan.options, spec.shell))) {
      return readStdinScript(call, `the shell started by ${name}`, true);
    }
    return null;
  }
  return { args, index: operands[k], context: { ...context, nesting: context.nesting + 1 } };
}

/** Refused options fail the name check; scripts in options are read. False once one failed. */
function readWrapperOptions(call: Invocation, spec: WrapperSpec, scan: Scanned): boolean {
  const { collector, name, context } = call;
  for (const option of scan.options) {
    const refusal = spec.refuses?.[option.name];
    if (refusal !== undefined) {
      collector.fail(`${name} ${option.name} ${refusal}`);
      return false;
    }
    if (spec.scripts?.split(" ").includes(option.name)) {
      readScriptArg(
        call,
        option.value,
        `the command given to ${name} ${option.name}`,
        context.dialect,
      );
    }
  }
  return true;
}

/** `mapfile NAME` sets the array NAME (MAPFILE by default); no operand is a command. */
function readNoCommandOperands(call: Invocation, scan: Scanned): Next {
  const { collector, name, args, context } = call;
  const array = scan.operands.length > 0 ? resolveIn(args[scan.operands[0]], context) : null;
  if (array !== null && (name === "mapfile" || name === "readarray")) {
    if (!("value" in array)) return collector.fail(`${name} sets an array named at run time`);
    collector.variableWrite(array.value, null, context.nesting);
  }
  return null;
}

/** Index in the operands of the command: past leading assignments and the wrapper's operands. */
function commandOperand(call: Invocation, spec: WrapperSpec, scan: Scanned): number {
  const { args, context } = call;
  const operands = scan.operands;
  let k = 0;
  if (spec.assignments) {
    while (k < operands.length) {
      const word = resolveIn(args[operands[k]], context);
      if (!("value" in word)) break;
      const eq = word.value.indexOf("=");
      if (eq <= 0) break;
      writeOperand(call, word.value.slice(0, eq), word.value.slice(eq + 1));
      k++;
    }
  }
  return k +
    (scan.options.length === 0 && spec.operandsWithoutOptions !== undefined
      ? spec.operandsWithoutOptions
      : spec.operands ?? 0);
}

/** Reads `watch`: with `-x` it runs its operands as a command, else joined with `sh -c`. */
export function readWatch(call: Invocation): Next {
  const { collector, args, start, context } = call;
  const scan = scanOptions(args, start, {
    short: "nq",
    attached: "d",
    long: ["interval", "equexit", "differences"],
  }, "watch");
  if ("unknown" in scan) return collector.fail(scan.unknown);
  if (scan.operands.length === 0) return null;
  if (hasOption(scan.options, "-x --exec")) {
    return { args, index: scan.operands[0], context: { ...context, nesting: context.nesting + 1 } };
  }
  const sh = call.collector.shellDialect("sh");
  return readJoinedScript(call, scan.operands, "the command run by watch", sh);
}

/**
 * Applies the variable policy to a `NAME=VALUE` operand of `env`, `sudo` or `make`. These
 * programs set names the shell cannot (`BASH_FUNC_ls%%`): one the policy does not know is refused.
 */
export function writeOperand(call: Invocation, name: string, value: string): void {
  const { collector, context } = call;
  collector.variableWrite(name, staticWord(value), context.nesting);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && variableRule(name) === null) {
    collector.fail(`${call.name} sets a variable whose name the shell could not set (${name})`);
  }
}

/** Reads `sg [-] GROUP [-c] COMMAND`: the command is a string `/bin/sh -c` runs. */
export function readSg(call: Invocation): Next {
  const { collector, args, start, context } = call;
  let i = start;
  const word = (k: number) => (args[k] === undefined ? null : resolveIn(args[k], context));
  const dash = word(i);
  if (dash !== null && "value" in dash && dash.value === "-") i++;
  if (args[i] === undefined) return readStdinScript(call, "the shell started by sg", true);
  i++;
  const option = word(i);
  if (option !== null && "value" in option && option.value === "-c") i++;
  if (args[i] === undefined) return readStdinScript(call, "the shell started by sg", true);
  const sh = collector.shellDialect("sh");
  return readScriptArg(call, args[i], "the command given to sg", sh);
}
