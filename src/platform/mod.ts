import { createPosixPlatform, findSetsid } from "./posix.ts";
import {
  createPtyBackend,
  darwinPtyAbi,
  LINUX_PTY_ABI,
  type PtyBackend,
  unsupportedPtyBackend,
  WINDOWS_UNSUPPORTED,
} from "./pty/mod.ts";
import { DARWIN_SIGNALS, LINUX_SIGNALS } from "./signal_numbers.ts";
import type { Platform } from "./types.ts";
import { createWindowsPlatform } from "./windows.ts";

export type { Platform, ShellExit, SpawnedProcess, SpawnRequest } from "./types.ts";
export { asSpawnedProcess } from "./pty/mod.ts";
export type { PtyBackend, PtyProcess, PtySpawnRequest, TerminalState } from "./pty/mod.ts";

/** Picks the adapter for the running OS; the only place that branches on it. */
export function currentPlatform(): Platform {
  switch (Deno.build.os) {
    case "windows":
      return createWindowsPlatform();
    case "darwin":
      return createPosixPlatform({
        signals: DARWIN_SIGNALS,
        containment: false,
        selfPid: Deno.pid,
        setsidPath: null,
      });
    default:
      return createPosixPlatform({
        signals: LINUX_SIGNALS,
        containment: Deno.build.os === "linux",
        selfPid: Deno.pid,
        setsidPath: Deno.build.os === "linux" ? findSetsid() : null,
      });
  }
}

/**
 * The pseudo-terminal backend for the running OS (tty mode), running commands through the
 * shell argv and containment token of `platform`; Windows has none yet.
 */
export function currentPtyBackend(platform: Platform): PtyBackend {
  const options = { shellArgv: platform.shellArgv, tokenVariable: platform.tokenVariable };
  switch (Deno.build.os) {
    case "windows":
      // TODO(#17): ConPTY on Windows.
      return unsupportedPtyBackend(WINDOWS_UNSUPPORTED);
    case "darwin":
      return createPtyBackend({
        ...options,
        abi: darwinPtyAbi(Deno.build.arch === "aarch64"),
        signals: DARWIN_SIGNALS,
      });
    default:
      return createPtyBackend({ ...options, abi: LINUX_PTY_ABI, signals: LINUX_SIGNALS });
  }
}
