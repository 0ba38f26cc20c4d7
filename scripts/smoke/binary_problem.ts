/** What is known about the file the smoke test was pointed at. */
export interface BinaryFacts {
  /** The path given (argument or `YIELDSHELL_BIN`); undefined or empty when none was. */
  path: string | undefined;
  /** `Deno.stat` of it, or null when it does not exist. */
  info: Pick<Deno.FileInfo, "isFile" | "mode"> | null;
}

/** Why the binary cannot be smoke-tested, or null when it can. */
export function binaryProblem({ path, info }: BinaryFacts): string | null {
  if (path === undefined || path === "") {
    return "no binary was named; pass its path or set YIELDSHELL_BIN, e.g. " +
      "YIELDSHELL_BIN=dist/yieldshell-x86_64-unknown-linux-gnu after `deno task compile`";
  }
  if (info === null) return `${path} does not exist`;
  if (!info.isFile) return `${path} is not a file`;
  // Windows reports no mode; there an existing file is as executable as it gets.
  if (info.mode !== null && (info.mode & 0o111) === 0) {
    return `${path} is not executable; run chmod +x ${path}`;
  }
  return null;
}
