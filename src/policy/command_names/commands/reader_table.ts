import { BASH_SHELLS } from "../../shell_grammar.ts";
import { readAwk } from "./awk.ts";
import { CODE_RUNNERS, readCodeRunner, readCoproc, readTrap } from "./builtins.ts";
import {
  readAt,
  readEmacs,
  readEntr,
  readIp,
  readMake,
  readPackageRunner,
  readRefusedProgram,
  REFUSED_PROGRAMS,
} from "./program_runners.ts";
import { readRsyncOrTar } from "./rsync_tar.ts";
import { readEnv } from "./env_command.ts";
import { readFind } from "./find.ts";
import { readGit } from "./git.ts";
import { interpreterSpec, readInterpreter } from "./interpreters.ts";
import type { CommandReader } from "../command_reader.ts";
import { readGdb, readJsRuntime, readPowershell } from "./runtimes.ts";
import { readSed } from "./sed.ts";
import { readScriptCommand, readShell, readSu } from "./shells.ts";
import { readSsh } from "./ssh.ts";
import { readSg, readWatch, readWrapper, wrapperSpec } from "./wrappers.ts";
import {
  readDeclarationBuiltin,
  readLet,
  readNameBuiltin,
  readTestCommand,
} from "./variable_builtins.ts";
import { readXargs } from "./xargs.ts";

/** Commands read by a reader of their own (beside code runners, shells, wrappers, interpreters). */
const SPECIAL_READERS: ReadonlyMap<string, CommandReader> = new Map<string, CommandReader>([
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
  ["rsync", readRsyncOrTar],
  ["tar", readRsyncOrTar],
  ["bsdtar", readRsyncOrTar],
  ["gtar", readRsyncOrTar],
  ["deno", readJsRuntime],
  ["bun", readJsRuntime],
  ["pwsh", readPowershell],
  ["powershell", readPowershell],
  ["gdb", readGdb],
  ["sg", readSg],
  ["make", readMake],
  ["gmake", readMake],
  ["bmake", readMake],
  ["pmake", readMake],
  ["at", readAt],
  ["batch", readAt],
  ["npx", readPackageRunner],
  ["npm", readPackageRunner],
  ["emacs", readEmacs],
  ["ip", readIp],
  ["entr", readEntr],
  ...Object.keys(REFUSED_PROGRAMS).map((name): [string, CommandReader] => [
    name,
    readRefusedProgram,
  ]),
  ["let", readLet],
  ["test", readTestCommand],
  ["[", readTestCommand],
  ["export", readDeclarationBuiltin],
  ["declare", readDeclarationBuiltin],
  ["typeset", readDeclarationBuiltin],
  ["local", readDeclarationBuiltin],
  ["readonly", readDeclarationBuiltin],
  ...["read", "printf", "getopts", "wait"].map((name): [string, CommandReader] => [
    name,
    readNameBuiltin,
  ]),
]);

/** Whether a lower-case basename needs more than being recorded: its arguments matter. */
export function hasReader(base: string): boolean {
  return SPECIAL_READERS.has(base) || BASH_SHELLS.has(base) ||
    Object.hasOwn(CODE_RUNNERS, base) || wrapperSpec(base) !== undefined ||
    interpreterSpec(base) !== undefined;
}

/** The reader of a command's arguments when they can name or contain other commands. */
export function readerFor(base: string): CommandReader | null {
  // A name in two tables gets the first reader below; today the tables do not overlap.
  if (Object.hasOwn(CODE_RUNNERS, base)) return readCodeRunner;
  if (BASH_SHELLS.has(base)) return readShell;
  const wrapper = wrapperSpec(base);
  if (wrapper !== undefined) return (call) => readWrapper(call, wrapper);
  const interpreter = interpreterSpec(base);
  if (interpreter !== undefined) return (call) => readInterpreter(call, interpreter);
  return SPECIAL_READERS.get(base) ?? null;
}

/**
 * Whether a command takes words appended at run time (`xargs`) as plain arguments: shells given
 * `-c SCRIPT` and wrappers that name their command, whose readers fail closed when the command
 * or script would come from that input.
 */
export function takesAppendedInput(base: string): boolean {
  return BASH_SHELLS.has(base) || base === "env" || base === "xargs" ||
    wrapperSpec(base) !== undefined;
}
