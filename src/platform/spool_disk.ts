/**
 * The output spool's file operations on Deno's synchronous file API. It implements the core's
 * `SpoolDisk` port (src/core/spool_port.ts) structurally: the platform layer imports nothing
 * from the core, and app.ts, where both meet, checks the fit.
 */

/** Options of {@linkcode createSpoolDisk}. */
export interface SpoolDiskOptions {
  /** Windows: `\` paths, no modes or owners, no signal-based liveness, no `df`. */
  windows: boolean;
}

/** An open spool file (the core's `SpoolFile`). */
export interface DiskFile {
  append(bytes: Uint8Array): void;
  readAt(position: number, into: Uint8Array): number;
  close(): void;
}

const PRIVATE_MODE = 0o700;
/** Name of the default spool directory inside the system temp directory. */
const SPOOL_NAME = "yieldshell-spool";

/**
 * `yieldshell-spool` in the system temp directory: `/tmp` on POSIX (not a per-user `TMPDIR`,
 * so that the server's baked-in write grant covers it), `TEMP` or `TMP` on Windows.
 */
export function defaultSpoolRoot(env: Readonly<Record<string, string>>, windows: boolean): string {
  if (!windows) return `/tmp/${SPOOL_NAME}`;
  const temp = env.TEMP || env.TMP || "C:\\Windows\\Temp";
  return temp.endsWith("\\") ? temp + SPOOL_NAME : `${temp}\\${SPOOL_NAME}`;
}

/** The spool's file operations for this OS. */
export function createSpoolDisk(options: SpoolDiskOptions) {
  const { windows } = options;
  const separator = windows ? "\\" : "/";
  const makePrivate = (path: string) => {
    // mkdir applies the umask; chmod makes the mode exact.
    if (!windows) Deno.chmodSync(path, PRIVATE_MODE);
  };
  return {
    join: (directory: string, name: string): string =>
      directory.endsWith(separator) ? directory + name : directory + separator + name,
    ensureDirectory(path: string): void {
      const info = lstatOrNull(path);
      if (info === null) {
        Deno.mkdirSync(path, { recursive: true, mode: PRIVATE_MODE });
        makePrivate(path);
      } else if (info.isSymlink || !info.isDirectory) {
        throw new Error(`${path} is not a directory (a symbolic link or a file is refused)`);
      }
    },
    makeDirectory(path: string): void {
      Deno.mkdirSync(path, { mode: PRIVATE_MODE });
      makePrivate(path);
    },
    list: (path: string): string[] => [...Deno.readDirSync(path)].map((entry) => entry.name),
    ownerOf: (path: string): number | null => windows ? null : Deno.lstatSync(path).uid,
    remove: removeIfThere,
    create: (path: string): DiskFile =>
      wrap(Deno.openSync(path, { read: true, append: true, createNew: true })),
    open: (path: string): DiskFile => wrap(Deno.openSync(path, { read: true, append: true })),
    isProcessAlive: (pid: number): boolean => windows ? true : isAlive(pid),
    space: (path: string): Promise<{ availableBytes: number; totalBytes: number } | null> =>
      windows ? Promise.resolve(null) : diskSpace(path),
  };
}

/** What is at `path` (a link itself, not its target), or null when nothing is. */
function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Removes `path` and all below it; nothing there is fine. */
function removeIfThere(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

function wrap(file: Deno.FsFile): DiskFile {
  let closed = false;
  return {
    append(bytes: Uint8Array): void {
      let offset = 0;
      while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
    },
    readAt(position: number, into: Uint8Array): number {
      file.seekSync(position, Deno.SeekMode.Start);
      let filled = 0;
      while (filled < into.length) {
        const count = file.readSync(into.subarray(filled));
        if (count === null || count === 0) break;
        filled += count;
      }
      return filled;
    },
    close(): void {
      if (closed) return;
      closed = true;
      file.close();
    },
  };
}

/**
 * Liveness without reading /proc (which Deno allows only with --allow-all): SIGURG is ignored by
 * default, and the kill fails with ESRCH once no such process exists.
 */
function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 1) return true;
  try {
    Deno.kill(pid, "SIGURG");
    return true;
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
}

/** `df -Pk` (POSIX output format, 1024-byte blocks): Deno has no statfs without --allow-sys. */
async function diskSpace(
  path: string,
): Promise<{ availableBytes: number; totalBytes: number } | null> {
  try {
    const { success, stdout } = await new Deno.Command("df", {
      args: ["-Pk", path],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!success) return null;
    return parseDf(new TextDecoder().decode(stdout));
  } catch {
    return null;
  }
}

/** The sizes in `df -Pk` output: the second line's 1024-blocks and Available columns. */
export function parseDf(output: string): { availableBytes: number; totalBytes: number } | null {
  const line = output.trim().split("\n")[1];
  if (line === undefined) return null;
  // The file system name may contain spaces; the five numeric columns and the mount point follow.
  const match = /\s(\d+)\s+(\d+)\s+(\d+)\s+\d+%\s+\S.*$/.exec(line);
  if (match === null) return null;
  return { totalBytes: Number(match[1]) * 1024, availableBytes: Number(match[3]) * 1024 };
}
