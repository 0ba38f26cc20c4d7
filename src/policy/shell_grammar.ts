/** Shells whose command language the bash grammar parses (by basename, lower case). */
export const BASH_SHELLS: ReadonlySet<string> = new Set([
  "bash",
  "sh",
  "dash",
  "zsh",
  "ksh",
  "mksh",
  "ash",
  "rbash",
  "posh",
]);

/** Whether `shell` (a path or name, `.exe` allowed) reads bash syntax. */
export function readsBash(shell: string): boolean {
  const base = shell.slice(Math.max(shell.lastIndexOf("/"), shell.lastIndexOf("\\")) + 1)
    .toLowerCase().replace(/\.exe$/, "");
  return BASH_SHELLS.has(base);
}
