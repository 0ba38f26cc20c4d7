import { errorText } from "../contract/error_text.ts";
import type { SpoolDisk, SpoolFile } from "./spool_port.ts";

/** Where the server's spool directory is, or why there is none. */
export interface PreparedDirectory {
  directory: string | null;
  problem: string | null;
  /** The owner of the directory (null where the OS has none, or when there is no directory). */
  owner: number | null;
}

/**
 * Makes `<root>/<pid>` (private, empty); never throws: a root that cannot be used gives a
 * problem that says what to set. The directories of dead servers are left to
 * {@linkcode removeStaleDirectories}.
 */
export function prepareDirectory(
  options: { disk: SpoolDisk; root: string; pid: number },
): PreparedDirectory {
  const { disk, root, pid } = options;
  const own = disk.join(root, String(pid));
  try {
    disk.ensureDirectory(root);
    // A directory with our pid is a dead server's: we are the live one now.
    disk.remove(own);
    disk.makeDirectory(own);
    const owner = disk.ownerOf(own);
    if (owner !== disk.ownerOf(root)) {
      disk.remove(own);
      throw new Error(`${root} belongs to another user`);
    }
    return { directory: own, problem: null, owner };
  } catch (error) {
    return {
      directory: null,
      problem: `Output is kept in memory only, as the spool directory ${root} cannot be used (${
        errorText(error)
      }); set spool_dir (YIELDSHELL_SPOOL_DIR) to a writable directory of your own`,
      owner: null,
    };
  }
}

/**
 * Removes the directories of dead servers beside ours (same owner, a pid no process has);
 * returns their paths. Never throws: one that cannot be removed is left.
 */
export function removeStaleDirectories(
  options: { disk: SpoolDisk; root: string; pid: number; owner: number | null },
): string[] {
  const { disk, root, pid, owner } = options;
  const removed: string[] = [];
  let names: string[];
  try {
    names = disk.list(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!/^[1-9][0-9]*$/.test(name) || name === String(pid)) continue;
    const path = disk.join(root, name);
    try {
      if (disk.ownerOf(path) !== owner || disk.isProcessAlive(Number(name))) continue;
      disk.remove(path);
      removed.push(path);
    } catch {
      // Another server may be removing it too, or it is not ours to remove.
    }
  }
  return removed;
}

/** Removes a path, ignoring failures (a file that cannot be deleted is no longer counted). */
export function removeQuietly(disk: SpoolDisk, path: string): void {
  try {
    disk.remove(path);
  } catch {
    // Best effort: a file that cannot be deleted is no longer counted or read.
  }
}

/** Closes a file, ignoring failures (it may be closed already). */
export function closeQuietly(file: SpoolFile): void {
  try {
    file.close();
  } catch {
    // Already closed.
  }
}
