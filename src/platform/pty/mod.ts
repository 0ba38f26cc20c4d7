import type { PtyAbi } from "./abi.ts";
import { Libc } from "./libc.ts";
import { spawnLibcPty } from "./spawn_libc_pty.ts";
import type { PtyBackend, PtyProcess, PtySpawnRequest } from "./types.ts";

export { asSpawnedProcess } from "./as_spawned_process.ts";
export { darwinPtyAbi, LINUX_PTY_ABI, type PtyAbi } from "./abi.ts";
export { DEFAULT_TERM } from "./spawn_libc_pty.ts";
export type { PtyBackend, PtyProcess, PtySpawnRequest, TerminalState } from "./types.ts";

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
  /** Variable that carries the containment token (Linux), or null. */
  tokenVariable: string | null;
  /** The argv that runs `command` through `shell`, as for pipes. */
  shellArgv(shell: string, command: string): { program: string; args: string[] };
  /** Whether FFI is allowed. @default {Deno.permissions.querySync({ name: "ffi" })} */
  ffiGranted?: () => boolean;
}

/** Pseudo-terminals through libc FFI (`posix_openpt` + one `posix_spawn`); Linux and macOS. */
export function createPtyBackend(options: PtyBackendOptions): PtyBackend {
  const { abi, signals, tokenVariable, shellArgv } = options;
  const ffiGranted = options.ffiGranted ??
    (() => Deno.permissions.querySync({ name: "ffi" }).state === "granted");
  let libc: Libc | null = null;
  return {
    unavailable: () => ffiGranted() ? null : FFI_MISSING,
    spawn(request: PtySpawnRequest): PtyProcess {
      if (!ffiGranted()) throw new Error(FFI_MISSING);
      libc ??= new Libc(abi);
      const argv = shellArgv(request.shell ?? "/bin/sh", request.command);
      return spawnLibcPty(libc, request, { argv, signals, tokenVariable });
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
