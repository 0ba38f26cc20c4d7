import { BASH_SHELLS } from "../shell_grammar.ts";
import { readAwk } from "./awk.ts";
import { CODE_RUNNERS, readCodeRunner, readCoproc, readTrap } from "./builtins.ts";
import { readCommandOptions } from "./command_options.ts";
import { readEnv } from "./env.ts";
import { readFind } from "./find.ts";
import { readGit } from "./git.ts";
import { interpreterSpec, readInterpreter } from "./interpreters.ts";
import type { Handler } from "./invocation.ts";
import { readGdb, readJsRuntime, readPowershell } from "./runtimes.ts";
import { readSed } from "./sed.ts";
import { readScriptCommand, readShell, readSu } from "./shells.ts";
import { readSsh } from "./ssh.ts";
import { readWatch, readWrapper, wrapperSpec } from "./wrappers.ts";
import { readXargs } from "./xargs.ts";

/** Commands read by a handler of their own (beside code runners, shells, wrappers, interpreters). */
const SPECIAL_HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ["env", readEnv],
  ["xargs", readXargs],
  ["find", readFind],
  ["watch", readWatch],
  ["coproc", readCoproc],
  ["trap", readTrap],
  ["git", readGit],
  ["awk", readAwk],
  ["gawk", readAwk],
  ["mawk", readAwk],
  ["nawk", readAwk],
  ["sed", readSed],
  ["gsed", readSed],
  ["ssh", readSsh],
  ["su", readSu],
  ["runuser", readSu],
  ["script", readScriptCommand],
  ["rsync", readCommandOptions],
  ["tar", readCommandOptions],
  ["bsdtar", readCommandOptions],
  ["gtar", readCommandOptions],
  ["deno", readJsRuntime],
  ["bun", readJsRuntime],
  ["pwsh", readPowershell],
  ["powershell", readPowershell],
  ["gdb", readGdb],
]);

/** Whether a lower-case basename needs more than being recorded: its arguments matter. */
export function isHandled(base: string): boolean {
  return SPECIAL_HANDLERS.has(base) || BASH_SHELLS.has(base) ||
    Object.hasOwn(CODE_RUNNERS, base) || wrapperSpec(base) !== undefined ||
    interpreterSpec(base) !== undefined;
}

/** The reader of a command's arguments when they can name or contain other commands. */
export function handlerFor(base: string): Handler | null {
  // A name in two tables gets the first reader below; today the tables do not overlap.
  if (Object.hasOwn(CODE_RUNNERS, base)) return readCodeRunner;
  if (BASH_SHELLS.has(base)) return readShell;
  const wrapper = wrapperSpec(base);
  if (wrapper !== undefined) return (call) => readWrapper(call, wrapper);
  const interpreter = interpreterSpec(base);
  if (interpreter !== undefined) return (call) => readInterpreter(call, interpreter);
  return SPECIAL_HANDLERS.get(base) ?? null;
}

/**
 * Whether a command takes words appended at run time (`xargs`) as plain arguments: shells given
 * `-c SCRIPT` and wrappers that name their command, whose handlers fail closed when the command
 * or script would come from that input.
 */
export function takesAppendedInput(base: string): boolean {
  return BASH_SHELLS.has(base) || base === "env" || base === "xargs" ||
    wrapperSpec(base) !== undefined;
}
