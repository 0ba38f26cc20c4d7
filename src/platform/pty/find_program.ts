/** Whether `path` names an executable regular file. */
function isExecutableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * Resolves a program name the way execvp would with the child's own `PATH`, so a missing
 * program fails before spawning (posix_spawnp would search the server's `PATH` instead).
 */
export function findProgram(program: string, env: Record<string, string>): string | null {
  if (program.includes("/")) return isExecutableFile(program) ? program : null;
  for (const dir of (env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(":")) {
    const candidate = `${dir === "" ? "." : dir}/${program}`;
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}
