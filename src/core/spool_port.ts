/**
 * The file operations the output spool needs; `src/platform/spool_disk.ts` implements them.
 * Everything is synchronous so that the output log stays synchronous (appends come from the
 * capture pumps, reads from tool handlers); every call is one or two system calls on files the
 * server owns, and any of them may throw (a full disk, a denied permission).
 */
export interface SpoolDisk {
  /** `name` inside `directory`, with the platform's separator. */
  join(directory: string, name: string): string;
  /**
   * Makes `path` (and missing parents) a private directory (mode 0700 where modes exist), or
   * checks that an existing one is a real directory and not a symbolic link.
   */
  ensureDirectory(path: string): void;
  /** Makes a new, empty private directory at `path`; throws if it exists. */
  makeDirectory(path: string): void;
  /** The names in a directory. */
  list(path: string): string[];
  /** Owner id of a path (not following links) where the OS has one, else null. */
  ownerOf(path: string): number | null;
  /** Removes a file or a directory tree; a missing path is not an error. */
  remove(path: string): void;
  /** Creates a new file at `path` for appending and reading; throws if it exists. */
  create(path: string): SpoolFile;
  /** Opens an existing spool file for appending and reading. */
  open(path: string): SpoolFile;
  /** Whether a process with this id is alive (true when unknowable, so nothing is removed). */
  isProcessAlive(pid: number): boolean;
  /** Bytes free for this user and the size of the file system holding `path`, or null. */
  space(path: string): Promise<DiskSpace | null>;
}

/** Free and total bytes of one file system. */
export interface DiskSpace {
  availableBytes: number;
  totalBytes: number;
}

/** One open spool file: appends go to its end, reads are positioned. */
export interface SpoolFile {
  /** Appends every byte of `bytes` (a short write is retried; errors throw). */
  append(bytes: Uint8Array): void;
  /** Reads up to `into.length` bytes at `position` into `into`; returns the count, 0 at the end. */
  readAt(position: number, into: Uint8Array): number;
  /** Closes the file; idempotent. */
  close(): void;
}
