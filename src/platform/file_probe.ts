/** The canonical path of an existing path, every symlink followed, or null when it is missing. */
export function realPath(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/** Whether `path` is an existing directory (following symlinks). */
export function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
