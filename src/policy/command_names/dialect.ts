/**
 * Which shell reads a script, as far as the policy cares: `bash` for shells that evaluate array
 * subscripts, prompt strings and indirections (bash, zsh, ksh...), which can run commands
 * hidden in data; `posix` for shells that have none of these (dash, ash, posh).
 */
export type Dialect = "bash" | "posix";

/** Shells (by lower-case basename) that have no arrays, namerefs or prompt expansion. */
const POSIX_SHELLS: ReadonlySet<string> = new Set(["dash", "ash", "posh"]);

/**
 * The dialect of a shell given by path or name (`.exe` allowed); `sh` is `shDialect`, since
 * it is a link to another shell. Anything unknown is `bash`, the reading that refuses more.
 */
export function dialectOf(shell: string, shDialect: Dialect = "bash"): Dialect {
  const base = shell.slice(Math.max(shell.lastIndexOf("/"), shell.lastIndexOf("\\")) + 1)
    .toLowerCase().replace(/\.exe$/, "");
  if (base === "sh") return shDialect;
  return POSIX_SHELLS.has(base) ? "posix" : "bash";
}
