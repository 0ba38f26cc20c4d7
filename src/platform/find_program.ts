/** The first existing `setsid` of util-linux, or null. */
export function findSetsid(): string | null {
  for (const path of ["/usr/bin/setsid", "/bin/setsid"]) {
    if (executableFile(path)) return path;
  }
  return null;
}

function executableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Resolves a shell name the way execvp would, so a missing shell fails before spawning. */
export function resolveProgram(program: string, env: Record<string, string>): string | null {
  if (program.includes("/")) return executableFile(program) ? program : null;
  for (const dir of (env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(":")) {
    const candidate = `${dir === "" ? "." : dir}/${program}`;
    if (executableFile(candidate)) return candidate;
  }
  return null;
}
