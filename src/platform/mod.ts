import { createPosixPlatform, findSetsid } from "./posix.ts";
import { DARWIN_SIGNALS, LINUX_SIGNALS } from "./signal_numbers.ts";
import type { Platform } from "./types.ts";
import { createWindowsPlatform } from "./windows.ts";
import { openSandbox, type OpenSandboxOptions } from "./sandbox.ts";
import type { SandboxOpening } from "./sandbox_types.ts";

export type { Platform, ShellExit, SpawnedProcess, SpawnRequest } from "./types.ts";
export type { Argv, Confinement, Sandbox, SandboxOpening } from "./sandbox_types.ts";

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

/** The OS sandbox for the `sandbox` setting, after its self-test, or the startup error. */
export function currentSandbox(
  mode: OpenSandboxOptions["mode"],
  bwrap?: OpenSandboxOptions["bwrap"],
): Promise<SandboxOpening> {
  return openSandbox({ os: Deno.build.os, mode, bwrap });
}
