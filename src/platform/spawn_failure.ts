import { errorText } from "../contract/error_text.ts";

/** The `failed_to_start` text for a shell the OS could not start. */
export function spawnFailure(error: unknown, program: string, cwd: string): string {
  const reason = errorText(error);
  if (error instanceof Deno.errors.NotFound) {
    return `Cannot start shell ${program} in ${cwd}: ${reason}; check that the shell exists and the cwd is a directory`;
  }
  return `Cannot start shell ${program}: ${reason}`;
}
