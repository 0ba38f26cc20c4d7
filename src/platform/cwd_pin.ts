import type { Argv } from "./sandbox_types.ts";

/**
 * Shell text defining `pin DIR`: returns when the shell's working directory is exactly DIR with
 * every symlink resolved (`cd -P .` asks the kernel for the path of the directory the process
 * is in, so it cannot be raced), else prints why and exits 126. The policy checks a cwd path,
 * then the OS changes into it: a directory swapped for a symlink in between would otherwise
 * start the command wherever the symlink points. Builtins only: no process is started.
 */
export const PIN_FUNCTION = "pin() { " +
  'cd -P . 2>/dev/null && [ "$PWD" = "$1" ] && return 0; ' +
  "printf 'Cannot start in %s as it was replaced after the cwd check (it resolves to %s now); " +
  "pass a directory that stays in place\\n' " +
  '"$1" "$(pwd -P 2>/dev/null || echo nothing)" >&2; exit 126; }';

/** Runs `command` only once its shell is known to stand exactly in `cwd` (exit 126 otherwise). */
export function pinnedArgv(command: Argv, cwd: string): Argv {
  return {
    program: "/bin/sh",
    args: [
      "-c",
      `${PIN_FUNCTION}; pin "$1"; shift; exec "$0" "$@"`,
      command.program,
      cwd,
      ...command.args,
    ],
  };
}
