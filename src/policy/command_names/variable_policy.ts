/**
 * The one variable policy of the command-name lists. It applies to every way a command line or
 * a call sets a variable: the `env` argument of `execute`, assignments (`X=1 cmd`, `X=1`),
 * declarations (`export X=1`), the operands of `env`, `sudo` and `make`, and builtins that
 * write variables (`read X`, `printf -v X`, `for X in ...`, `${X:=...}`).
 */

import { quoteName } from "./messages.ts";

/** What setting a variable means to the policy. */
export type VariableRule =
  /** Refused while a list is set: the clause says why (it follows the variable's name). */
  | { kind: "refused"; why: string }
  /** Holds a command line some program runs: a static value is read as a script. */
  | { kind: "command" };

/** Refused by exact name, with why. */
const REFUSED: Readonly<Record<string, string>> = {
  PATH: "may change PATH, so listed bare names could run other files",
  BASH_ENV: "makes a shell run a file first",
  ENV: "makes a shell run a file first",
  ZDOTDIR: "makes zsh run its startup files from another directory",
  SHELLOPTS: "turns on shell options such as xtrace, which expands PS4",
  BASHOPTS: "turns on shell options",
  FPATH: "makes zsh and ksh load functions from another directory",
  PS0: "is expanded as a prompt, which runs command substitutions",
  PS1: "is expanded as a prompt, which runs command substitutions",
  PS2: "is expanded as a prompt, which runs command substitutions",
  PS4: "is expanded by set -x, which runs command substitutions",
  PROMPT_COMMAND: "is run by the shell before each prompt",
  SHELL: "names the shell that programs such as script, flock and vim start",
  HOME: "makes programs read their configuration, which can name programs, from another place",
  XDG_CONFIG_HOME:
    "makes programs read their configuration, which can name programs, from another place",
  GCONV_PATH: "makes the C library load character-conversion modules",
  GIT_EXEC_PATH: "makes git run its subcommands from another directory",
  GIT_TEMPLATE_DIR: "makes git install hooks from another directory",
  NODE_OPTIONS: "passes options to node, such as --require and --import",
  NODE_PATH: "makes node load modules from other directories",
  PERL5OPT: "passes options to perl, such as -M, which runs code",
  PERL5LIB: "makes perl load modules from other directories",
  PERLLIB: "makes perl load modules from other directories",
  PERL5DB: "gives perl a debugger to run",
  RUBYOPT: "passes options to ruby, such as -r",
  RUBYLIB: "makes ruby load libraries from other directories",
  PYTHONPATH: "makes python load modules from other directories",
  PYTHONHOME: "makes python load its standard library from another directory",
  PYTHONSTARTUP: "makes python run a file first",
  PYTHONUSERBASE: "makes python load site packages, which can run code, from another place",
  PYTHONBREAKPOINT: "names a function python imports and calls",
  JAVA_TOOL_OPTIONS: "passes options to java, such as -javaagent",
  _JAVA_OPTIONS: "passes options to java, such as -javaagent",
  JDK_JAVA_OPTIONS: "passes options to java, such as -javaagent",
  CLASSPATH: "makes java load classes from other places",
  TCLLIBPATH: "makes tclsh load packages from other directories",
  R_PROFILE: "makes R run a file first",
  R_PROFILE_USER: "makes R run a file first",
  R_ENVIRON: "makes R read settings from another file",
  R_ENVIRON_USER: "makes R read settings from another file",
  MAKEFLAGS: "passes options to make, such as --eval",
  GNUMAKEFLAGS: "passes options to make, such as --eval",
  MFLAGS: "passes options to make, such as --eval",
  TAR_OPTIONS: "passes options to tar, such as --to-command",
  MANOPT: "passes options to man, such as --pager",
  LESS: "gives less commands to run at startup",
  VIMINIT: "gives vim commands to run at startup",
  EXINIT: "gives vi commands to run at startup",
  MYVIMRC: "makes vim run another startup file",
  VIMRUNTIME: "makes vim load its scripts from another directory",
  OPENSSL_CONF: "makes OpenSSL load engines and modules named in another file",
  OPENSSL_ENGINES: "makes OpenSSL load engines from another directory",
  OPENSSL_MODULES: "makes OpenSSL load modules from another directory",
};

/** Refused by name prefix, with why. */
const REFUSED_PREFIXES: readonly [string, string][] = [
  ["LD_", "makes the dynamic loader load code"],
  ["DYLD_", "makes the dynamic loader load code"],
  ["BASH_FUNC_", "defines a shell function that bash imports from the environment"],
  ["GIT_CONFIG", "gives git settings, which can name programs to run"],
  ["LUA_INIT", "gives lua code to run first"],
  ["LUA_PATH", "makes lua load modules from other directories"],
  ["LUA_CPATH", "makes lua load modules from other directories"],
];

/** Variables whose value is a command line that some program runs (by exact name). */
const COMMAND_VARIABLES: ReadonlySet<string> = new Set([
  "BROWSER",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "MANPAGER",
  "FCEDIT",
  "LESSOPEN",
  "LESSCLOSE",
  "GIT_SSH",
  "GIT_EXTERNAL_DIFF",
  "RSYNC_RSH",
  "RSYNC_CONNECT_PROG",
  "CVS_RSH",
  "SVN_SSH",
  "CC",
  "CXX",
  "CPP",
  "LD",
  "AR",
  "AS",
  "FC",
  "RUSTC",
  "RUSTDOC",
]);

/** Name endings of variables that hold a command line (`GIT_SSH_COMMAND`, `SUDO_ASKPASS`...). */
const COMMAND_SUFFIX = /_(EDITOR|PAGER|ASKPASS|COMMAND|RSH|SSH|WRAPPER)$/;

/** The rule for setting `name`, or null when setting it is of no concern to the lists. */
export function variableRule(name: string): VariableRule | null {
  if (Object.hasOwn(REFUSED, name)) return { kind: "refused", why: REFUSED[name] };
  for (const [prefix, why] of REFUSED_PREFIXES) {
    if (name.startsWith(prefix)) return { kind: "refused", why };
  }
  if (COMMAND_VARIABLES.has(name) || COMMAND_SUFFIX.test(name)) return { kind: "command" };
  return null;
}

/** The message for a refused variable; `why` comes from its rule. */
export function refusedVariableMessage(name: string, why: string): string {
  return `Variable ${
    quoteName(name)
  } is refused while a blacklist or whitelist is configured: it ${why}; remove it from the command and from the env argument`;
}
