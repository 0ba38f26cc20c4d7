/** Shells whose `-c` reads POSIX sh only: dash is /bin/sh on Debian and Ubuntu. */
const PLAIN_SH = new Set(["sh", "dash"]);
/** Shells that take no `-c` and where `&` and `setsid` mean nothing (Windows). */
const NOT_POSIX = new Set(["cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh", "pwsh.exe"]);

/**
 * What the agent must know about the shell that runs its commands: which one, what a plain sh
 * lacks, that every call is a fresh shell, and that a background job holds the call open.
 */
export function describeShell(shell: string): string {
  const name = shell.split(/[\\/]/).at(-1)?.toLowerCase() ?? shell;
  const posix = !NOT_POSIX.has(name);
  const sentences = [`Runs the command with ${shell}${posix ? " -c" : ""} (shell picks another).`];
  if (PLAIN_SH.has(name)) {
    sentences.push(
      `${shell} is POSIX sh (dash on Debian and Ubuntu): no [[ ]], {1..3} or set -o pipefail; pass shell "bash" for those.`,
    );
  }
  sentences.push("Every call is a new shell: cd and export do not persist.");
  if (posix) {
    sentences.push(
      "A job started with cmd & holds the call for the whole yield window (same process group): use yield_ms 0, or detach it (Linux: setsid cmd >/dev/null 2>&1 &).",
    );
  }
  return sentences.join(" ");
}
