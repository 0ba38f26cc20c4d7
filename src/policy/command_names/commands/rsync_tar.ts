import type { Invocation } from "../command_reader.ts";
import { scanOptions } from "../getopt.ts";
import { resolveIn } from "../run_context.ts";
import { readScriptArg } from "../embedded_scripts.ts";

/** rsync options: those taking a value, and those whose value is a command line. */
const RSYNC_OPTIONS = {
  short: "efTBM",
  long: [
    "rsh",
    "rsync-path",
    "filter",
    "exclude",
    "include",
    "exclude-from",
    "include-from",
    "files-from",
    "temp-dir",
    "compare-dest",
    "copy-dest",
    "link-dest",
    "password-file",
  ],
  permute: true,
  scripts: ["-e", "--rsh", "--rsync-path"],
};

/** tar options: those taking a value, and those whose value is a command line. */
const TAR_OPTIONS = {
  short: "fCIFTXbLgKNVH",
  long: [
    "file",
    "directory",
    "use-compress-program",
    "to-command",
    "info-script",
    "new-volume-script",
    "rsh-command",
    "checkpoint-action",
    "files-from",
    "exclude-from",
    "exclude",
  ],
  permute: true,
  scripts: [
    "-I",
    "-F",
    "--use-compress-program",
    "--to-command",
    "--info-script",
    "--new-volume-script",
    "--rsh-command",
  ],
};

/** `rsync` and `tar`: options whose value is a command line (`-e`, `--to-command`...). */
export function readRsyncOrTar(call: Invocation): null {
  const { collector, name, args, start, context } = call;
  const rsync = name === "rsync";
  const first = args[start] === undefined ? null : resolveIn(args[start], context);
  // Old-style `tar xIf prog file` bundles letters without a dash.
  if (
    !rsync && first !== null && "value" in first && /^[A-Za-z]*[IF][A-Za-z]*$/.test(first.value)
  ) {
    return collector.fail(`${name} ${first.value} names a program to run in old-style options`);
  }
  const scan = scanOptions(
    args,
    start,
    rsync ? RSYNC_OPTIONS : TAR_OPTIONS,
    name,
  );
  if ("unknown" in scan) return collector.fail(scan.unknown);
  const scripts = rsync ? RSYNC_OPTIONS.scripts : TAR_OPTIONS.scripts;
  for (const { name: option, value } of scan.options) {
    if (scripts.includes(option)) {
      readScriptArg(call, value, `the command given to ${name} ${option}`);
    } else if (option === "--checkpoint-action" && value !== undefined) {
      const action = resolveIn(value, context);
      if (!("value" in action)) {
        return collector.fail(`a ${name} action contains ${action.dynamic}`);
      }
      if (action.value.startsWith("exec=")) {
        collector.script(
          action.value.slice(5),
          `the command given to ${name} ${option}`,
          context.nesting,
          "bash",
        );
      }
    }
  }
  return null;
}
