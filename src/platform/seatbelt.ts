import { PIN_FUNCTION } from "./cwd_pin.ts";
import type { Argv, Confinement } from "./sandbox_types.ts";

/** macOS's Seatbelt front end. */
export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** Writable device files every command may need (the rest of /dev stays read-only). */
const DEVICES = [
  '(literal "/dev/null")',
  '(literal "/dev/zero")',
  '(literal "/dev/dtracehelper")',
  '(regex #"^/dev/tty")',
  '(regex #"^/dev/fd/")',
  '(literal "/dev/stdout")',
  '(literal "/dev/stderr")',
];

/**
 * The Seatbelt profile (SBPL) with the meaning of the bubblewrap sandbox: everything readable,
 * writes only to the private temporary directory `(param "TMP")` and the writable roots
 * `(param "W0")`, `(param "W1")`..., no network when it is off (loopback and local sockets
 * included, as macOS has no network namespace), and signals and process information only
 * within the sandbox, so nothing outside can be seen or killed. Paths travel as parameters,
 * so no path is ever quoted inside the profile text.
 */
export function seatbeltProfile(confinement: Confinement): string {
  const writable = confinement.writable.map((_, index) => `(subpath (param "W${index}"))`);
  return [
    "(version 1)",
    "(allow default)",
    "(deny signal)",
    "(allow signal (target same-sandbox))",
    "(deny process-info*)",
    "(allow process-info* (target same-sandbox))",
    "(deny file-write*)",
    `(allow file-write* (subpath (param "TMP")) ${[...writable, ...DEVICES].join(" ")})`,
    ...(confinement.network ? [] : ["(deny network*)"]),
    "",
  ].join("\n");
}

/**
 * Pins the checked cwd (`$1`), makes a fresh temporary directory outside the sandbox (the
 * private /tmp of the execution and its TMPDIR, resolved because Seatbelt matches real paths),
 * then execs sandbox-exec, so the pid and the process group stay the command's.
 */
const PREPARE = `${PIN_FUNCTION}; pin "$1"; shift; ` +
  'd=$(cd "$(/usr/bin/mktemp -d -t yieldshell)" && pwd -P) || exit 125; ' +
  'TMPDIR=$d/; export TMPDIR; exec "$0" -D TMP="$d" "$@"';

/** The argv that runs `command` under `sandbox-exec` with `seatbeltProfile(confinement)`. */
export function sandboxExecArgv(command: Argv, confinement: Confinement): Argv {
  const roots = confinement.writable.flatMap((root, index) => ["-D", `W${index}=${root}`]);
  return {
    program: "/bin/sh",
    args: [
      "-c",
      PREPARE,
      SANDBOX_EXEC,
      confinement.cwd,
      ...roots,
      "-p",
      seatbeltProfile(confinement),
      command.program,
      ...command.args,
    ],
  };
}
