import type { SpawnRequest } from "../core/process.ts";
import { pinnedArgv } from "./cwd_pin.ts";
import { resolveProgram } from "./find_program.ts";
import type { Argv, Sandbox } from "./sandbox_types.ts";

/**
 * What the new session of one execution runs: `shell -c command`, inside the OS sandbox when
 * the request is confined, behind the cwd pin when its cwd was checked. The shell is resolved
 * first (`resolve`), so a missing shell fails to start instead of exiting 127; wrappers always
 * get it absolute. Throws `NotFound` for a missing shell, and refuses (fails closed) a
 * confined request when no sandbox was opened.
 */
export function sessionArgv(
  request: SpawnRequest,
  env: Record<string, string>,
  options: { sandbox: Sandbox | null; resolve: boolean },
): Argv {
  const { confinement = null, cwdChecked = false } = request;
  const args = ["-c", request.command];
  const wrapped = confinement !== null || cwdChecked;
  if (!wrapped && !options.resolve) return { program: request.shell, args };
  const program = resolveProgram(request.shell, env);
  if (program === null) throw new Deno.errors.NotFound("No such file or directory (os error 2)");
  const shell = { program, args };
  if (confinement !== null) {
    if (options.sandbox === null) {
      throw new Error(
        "no OS sandbox was opened at startup, so a sandboxed command cannot run; restart the server",
      );
    }
    return options.sandbox.wrap(shell, confinement);
  }
  return cwdChecked ? pinnedArgv(shell, request.cwd) : shell;
}
