import { errorText } from "../contract/error_text.ts";
import { pythonRepr } from "../contract/python_repr.ts";

/** How to resolve a path; the filesystem is reached only through `realPath`. */
export interface ResolveOptions {
  /** Absolute directory that a relative path is resolved against (the default cwd). */
  base: string;
  /**
   * The canonical path of an existing path, with every symlink followed, or null when the
   * path does not exist. Other failures (a symlink loop, no permission) may throw.
   */
  realPath: (path: string) => string | null;
  /** The platform's path separator; `\\` also accepts `/` and drive letters. @default "/" */
  separator?: "/" | "\\";
}

/** An allowed cwd carries the resolved path the command must run in. */
export type CwdDecision = { allow: true; resolved: string } | { allow: false; reason: string };

interface ParsedPath {
  /** `/`, `C:\`, or `\\server\share\`. Empty for a relative path. */
  anchor: string;
  /** Components below the anchor; may contain `..` until resolved. */
  parts: string[];
}

/**
 * Python's `Path.resolve(strict=False)`: absolute against `base`, symlinks of the existing
 * prefix followed (so `link/..` is the parent of the link's target), `.` and `..` collapsed,
 * missing trailing components kept as written.
 */
export function resolvePath(path: string, options: ResolveOptions): string {
  const { base, realPath, separator = "/" } = options;
  const target = absolutePath(path, base, separator);
  const whole = realPath(formatPath(target, separator));
  if (whole !== null) return formatPath(parsePath(whole, separator), separator);
  let current: ParsedPath = { anchor: target.anchor, parts: [] };
  for (const part of target.parts) {
    if (part === "..") {
      current.parts.pop();
      continue;
    }
    const candidate = { anchor: current.anchor, parts: [...current.parts, part] };
    const real = realPath(formatPath(candidate, separator));
    current = real === null ? candidate : parsePath(real, separator);
  }
  return formatPath(current, separator);
}

/**
 * Allows `target` when, resolved, it equals a resolved root or lies below one (compared by
 * component, so `/projects-private` is not under `/projects`). No roots means no restriction.
 */
export function checkCwd(
  target: string,
  roots: readonly string[],
  options: ResolveOptions,
): CwdDecision {
  const { separator = "/" } = options;
  let resolved: string;
  try {
    resolved = resolvePath(target, options);
  } catch (error) {
    return { allow: false, reason: `Invalid cwd: ${errorText(error)}` };
  }
  const activeRoots = roots.filter((root) => root !== "");
  if (activeRoots.length === 0) return { allow: true, resolved };
  const targetPath = parsePath(resolved, separator);
  for (const root of activeRoots) {
    let rootPath: ParsedPath;
    try {
      rootPath = parsePath(resolvePath(root, options), separator);
    } catch (error) {
      return {
        allow: false,
        reason: `Invalid allowed cwd root ${pythonRepr(root)}: ${errorText(error)}`,
      };
    }
    if (isWithin(targetPath, rootPath, separator)) return { allow: true, resolved };
  }
  return { allow: false, reason: `Cwd not under allowed roots: ${resolved}` };
}

/** The error for a cwd that passed policy but does not exist. */
export function describeMissingCwd(resolved: string): string {
  return `Cwd does not exist: ${resolved}; pass an existing directory`;
}

function isWithin(target: ParsedPath, root: ParsedPath, separator: "/" | "\\"): boolean {
  // Windows paths compare case-insensitively, as Python's PureWindowsPath does.
  const key = separator === "\\" ? (s: string) => s.toLowerCase() : (s: string) => s;
  if (key(target.anchor) !== key(root.anchor)) return false;
  if (target.parts.length < root.parts.length) return false;
  return root.parts.every((part, i) => key(part) === key(target.parts[i]));
}

function absolutePath(path: string, base: string, separator: "/" | "\\"): ParsedPath {
  const parsed = parsePath(path, separator);
  if (parsed.anchor !== "") return parsed;
  const parsedBase = parsePath(base, separator);
  if (parsedBase.anchor === "") {
    throw new Error(`Base directory must be absolute: received ${pythonRepr(base)}`);
  }
  if (path.startsWith(separator) || (separator === "\\" && path.startsWith("/"))) {
    // `\dir` on Windows: the root of the base's drive.
    return { anchor: parsedBase.anchor, parts: parsed.parts };
  }
  return { anchor: parsedBase.anchor, parts: [...parsedBase.parts, ...parsed.parts] };
}

function parsePath(path: string, separator: "/" | "\\"): ParsedPath {
  if (separator === "/") {
    return { anchor: path.startsWith("/") ? "/" : "", parts: splitParts(path, /\/+/) };
  }
  const normalized = path.replace(/^\\\\\?\\UNC\\/i, "\\\\").replace(/^\\\\\?\\/, "")
    .replaceAll("/", "\\");
  const unc = /^\\\\([^\\]+)\\([^\\]+)(?:\\|$)/.exec(normalized);
  if (unc !== null) {
    return {
      anchor: `\\\\${unc[1]}\\${unc[2]}\\`,
      parts: splitParts(normalized.slice(unc[0].length), /\\+/),
    };
  }
  // `C:dir` (drive-relative) is taken as `C:\dir`: there is no per-drive cwd to consult.
  const drive = /^([A-Za-z]:)\\?/.exec(normalized);
  if (drive !== null) {
    return {
      anchor: `${drive[1].toUpperCase()}\\`,
      parts: splitParts(normalized.slice(drive[0].length), /\\+/),
    };
  }
  return { anchor: "", parts: splitParts(normalized, /\\+/) };
}

function splitParts(path: string, pattern: RegExp): string[] {
  return path.split(pattern).filter((part) => part !== "" && part !== ".");
}

function formatPath(path: ParsedPath, separator: "/" | "\\"): string {
  return path.anchor + path.parts.join(separator);
}
