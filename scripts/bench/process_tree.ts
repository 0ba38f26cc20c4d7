/**
 * The process tree of a server, read from /proc (Linux; the bench runs with -P=test): every
 * descendant of its pid plus every process carrying its marker in the environment (which
 * also finds children a server daemonized away from itself).
 */

/** One process of a tree. */
export interface TreeProcess {
  pid: number;
  /** `/proc/<pid>/comm`: the executable's name. */
  name: string;
  rssBytes: number;
  /** Proportional set size: shared pages divided among the processes sharing them. */
  pssBytes: number;
}

/** A tree split into the commands it was asked to run and everything else. */
export interface ServerTree {
  /** Processes that are not the commands: the server and its helpers. */
  helpers: TreeProcess[];
  /** The commands themselves (by name). */
  commands: TreeProcess[];
}

/** The server's tree, with processes named `commandName` counted as the commands. */
export function serverTree(rootPid: number, marker: string, commandName: string): ServerTree {
  const members = new Set<number>([rootPid]);
  const parents = new Map<number, number>();
  for (const pid of allPids()) {
    const parent = parentOf(pid);
    if (parent !== null) parents.set(pid, parent);
    if (environOf(pid).includes(marker)) members.add(pid);
  }
  // Descendants of every member, until nothing new joins.
  for (let grown = true; grown;) {
    grown = false;
    for (const [pid, parent] of parents) {
      if (members.has(parent) && !members.has(pid)) {
        members.add(pid);
        grown = true;
      }
    }
  }
  const processes = [...members].map(describe).filter((p): p is TreeProcess => p !== null);
  return {
    helpers: processes.filter((p) => p.name !== commandName),
    commands: processes.filter((p) => p.name === commandName),
  };
}

/** SIGKILLs the given processes; those already gone are skipped. */
export function killAll(processes: readonly TreeProcess[]): void {
  for (const { pid } of processes) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
}

function allPids(): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (/^\d+$/.test(entry.name)) pids.push(Number(entry.name));
  }
  return pids;
}

function read(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

function parentOf(pid: number): number | null {
  const stat = read(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Zombies and exiting processes hold no memory worth counting.
  if (fields.length < 2 || fields[0] === "Z" || fields[0] === "X") return null;
  return Number(fields[1]);
}

function environOf(pid: number): string {
  return read(`/proc/${pid}/environ`);
}

function kilobytes(text: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text);
  return match === null ? 0 : Number(match[1]) * 1024;
}

function describe(pid: number): TreeProcess | null {
  const status = read(`/proc/${pid}/status`);
  if (status === "" || /^State:\s+[ZX]/m.test(status)) return null;
  return {
    pid,
    name: read(`/proc/${pid}/comm`).trim(),
    rssBytes: kilobytes(status, "VmRSS"),
    pssBytes: kilobytes(read(`/proc/${pid}/smaps_rollup`), "Pss"),
  };
}
