/**
 * dash forks even for the last command of `sh -c`, so `sleep 30` runs as a shell waiting on
 * a sleep: one idle shell per execution. bash (and so `sh` where it is bash) execs a lone
 * simple command in place; {@linkcode simpleExec} gives dash the same, by prefixing `exec`,
 * and only where that changes nothing but the process count: a command of plain words whose
 * first word is no builtin or keyword and names an executable file on PATH (so a missing
 * command still fails with the shell's own message).
 */

/** The first word: a command name or path, nothing the shell would expand. */
const NAME = /^[A-Za-z0-9_./][A-Za-z0-9_./+-]*$/;
/** Any later word: characters no POSIX shell expands or splits on. */
const WORD = /^[A-Za-z0-9_./+,:=@%^-]+$/;

/** dash's builtins and reserved words: `exec` would run a program of that name instead. */
const SHELL_NAMES = new Set([
  ".",
  ":",
  "[",
  "alias",
  "bg",
  "break",
  "cd",
  "chdir",
  "command",
  "continue",
  "echo",
  "eval",
  "exec",
  "exit",
  "export",
  "false",
  "fc",
  "fg",
  "getopts",
  "hash",
  "jobs",
  "kill",
  "local",
  "printf",
  "pwd",
  "read",
  "readonly",
  "return",
  "set",
  "shift",
  "test",
  "times",
  "trap",
  "true",
  "type",
  "ulimit",
  "umask",
  "unalias",
  "unset",
  "wait",
  "!",
  "{",
  "}",
  "case",
  "do",
  "done",
  "elif",
  "else",
  "esac",
  "fi",
  "for",
  "if",
  "in",
  "then",
  "until",
  "while",
]);

/** How a command name is looked up, as the shell would. */
export interface ProgramLookup {
  /** The execution's working directory (for a relative path). */
  cwd: string;
  /** The execution's PATH; without one the shell's default applies, which is left alone. */
  path: string | undefined;
  /** Whether `path` (absolute) is a regular file anyone may execute. */
  isExecutable(path: string): boolean;
}

/** `command` prefixed with `exec` when that only saves the shell's fork, else `command`. */
export function simpleExec(command: string, lookup: ProgramLookup): string {
  const words = command.split(/[ \t]+/).filter((word) => word !== "");
  const [name, ...rest] = words;
  if (name === undefined || SHELL_NAMES.has(name) || !NAME.test(name)) return command;
  if (!rest.every((word) => WORD.test(word))) return command;
  return findsProgram(name, lookup) ? `exec ${command}` : command;
}

function findsProgram(name: string, lookup: ProgramLookup): boolean {
  if (name.includes("/")) {
    return lookup.isExecutable(name.startsWith("/") ? name : `${lookup.cwd}/${name}`);
  }
  if (lookup.path === undefined) return false;
  for (const dir of lookup.path.split(":")) {
    // A relative entry would be searched from the execution's cwd: leave such a PATH alone.
    if (!dir.startsWith("/")) return false;
    if (lookup.isExecutable(`${dir}/${name}`)) return true;
  }
  return false;
}
