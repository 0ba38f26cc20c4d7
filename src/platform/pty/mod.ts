import type { PtyAbi } from "./abi.ts";
import { Libc } from "./libc.ts";
import { spawnLibcPty } from "./spawn_libc_pty.ts";
import type { PtyBackend, PtyProcess, PtySpawnRequest } from "./types.ts";

export { darwinPtyAbi, LINUX_PTY_ABI, type PtyAbi } from "./abi.ts";
export { DEFAULT_TERM } from "./spawn_libc_pty.ts";
export { createPosixTerminals, unsupportedTerminals } from "./posix_terminals.ts";
export type { PtyBackend, PtyProcess, PtySpawnRequest, PtyState } from "./types.ts";

/** Told to the agent when a tty call reaches a server started without `--allow-ffi`. */
export const FFI_MISSING =
  "Cannot run with tty: true as the server lacks the ffi permission that pseudo-terminals need; restart it with -P=tty (deno task start:tty) or add --allow-ffi, or run the command without tty";

/** Told to the agent on Windows. */
export const WINDOWS_UNSUPPORTED =
  "Cannot run with tty: true on Windows yet as ConPTY is not implemented; run the command without tty";

/** Options of the libc pseudo-terminal backend. */
export interface PtyBackendOptions {
  /** The C facts of this OS. */
  abi: PtyAbi;
  /** Signal name to number table of this OS. */
  signals: Readonly<Record<string, number>>;
  /** Whether FFI is allowed. @default {Deno.permissions.querySync({ name: "ffi" })} */
  ffiGranted?: () => boolean;
}

/**
 * Pseudo-terminals through libc FFI (`posix_openpt` + one `posix_spawn` of `shell -c command`);
 * Linux and macOS. libc is opened on the first spawn.
 */
export function createPtyBackend(options: PtyBackendOptions): PtyBackend {
  const { abi, signals } = options;
  const ffiGranted = options.ffiGranted ??
    (() => Deno.permissions.querySync({ name: "ffi" }).state === "granted");
  let libc: Libc | null = null;
  return {
    unavailable: () => ffiGranted() ? null : FFI_MISSING,
    spawn(request: PtySpawnRequest): PtyProcess {
      if (!ffiGranted()) throw new Error(FFI_MISSING);
      libc ??= new Libc(abi);
      return spawnLibcPty(libc, request, { signals });
    },
  };
}

/** The backend of a platform without pseudo-terminals: every spawn fails with `reason`. */
export function unsupportedPtyBackend(reason: string): PtyBackend {
  return {
    unavailable: () => reason,
    spawn() {
      throw new Error(reason);
    },
  };
}
