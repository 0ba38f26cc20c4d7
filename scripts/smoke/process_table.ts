/**
 * Which processes exist, read through the system's own tools (`ps` on POSIX, CIM through
 * PowerShell on Windows), so the smoke test can tell whether a server left a child behind.
 */

/** One live process. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
}

const POSIX_PS = ["ps", "-A", "-o", "pid=", "-o", "ppid=", "-o", "stat="];
// Single quotes only: the script passes through Windows command-line quoting unharmed.
const WINDOWS_CIM = "Get-CimInstance Win32_Process | ForEach-Object { '{0} {1}' -f " +
  "$_.ProcessId, $_.ParentProcessId }";

/** Parses `pid ppid [stat]` lines; zombies (stat `Z`) are dead and left out. */
export function parseProcessTable(text: string): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    const [pid, ppid, stat = ""] = line.trim().split(/\s+/);
    if (!/^\d+$/.test(pid ?? "") || !/^\d+$/.test(ppid ?? "") || stat.startsWith("Z")) continue;
    entries.push({ pid: Number(pid), ppid: Number(ppid) });
  }
  return entries;
}

/** `root` and every process below it, root first; empty when `root` is not alive. */
export function descendants(table: readonly ProcessEntry[], root: number): number[] {
  if (!table.some((entry) => entry.pid === root)) return [];
  const found = [root];
  for (let index = 0; index < found.length; index++) {
    for (const entry of table) {
      if (entry.ppid === found[index] && !found.includes(entry.pid)) found.push(entry.pid);
    }
  }
  return found;
}

/** The processes alive now. */
export async function readProcessTable(): Promise<ProcessEntry[]> {
  const windows = Deno.build.os === "windows";
  const [program, ...args] = windows
    ? ["powershell.exe", "-NoProfile", "-NonInteractive", "-Command", WINDOWS_CIM]
    : POSIX_PS;
  const output = await new Deno.Command(program, { args, stdin: "null", stderr: "piped" })
    .output();
  if (!output.success) {
    const why = new TextDecoder().decode(output.stderr).trim();
    throw new Error(`Cannot list processes with ${program}: exit code ${output.code}; ${why}`);
  }
  return parseProcessTable(new TextDecoder().decode(output.stdout));
}

/** Which of `pids` are still alive. */
export async function stillAlive(pids: readonly number[]): Promise<number[]> {
  const live = new Set((await readProcessTable()).map((entry) => entry.pid));
  return pids.filter((pid) => live.has(pid));
}

/** Kills `pids` outright; for cleaning up after a server that left them behind. */
export async function killAll(pids: readonly number[]): Promise<void> {
  for (const pid of pids) {
    if (Deno.build.os === "windows") {
      await new Deno.Command("taskkill", {
        args: ["/F", "/PID", String(pid)],
        stdout: "null",
        stderr: "null",
      }).output().catch(() => {});
      continue;
    }
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* already gone */ }
  }
}
