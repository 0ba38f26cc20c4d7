import { createPosixPlatform, findSetsid } from "./posix.ts";
import { DARWIN_SIGNALS, LINUX_SIGNALS } from "./signal_numbers.ts";
import { createSpoolDisk, defaultSpoolRoot } from "./spool_disk.ts";
import type { Platform } from "./types.ts";
import { createWindowsPlatform } from "./windows.ts";

export type { Platform, ShellExit, SpawnedProcess, SpawnRequest } from "./types.ts";

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

/** The output spool's file operations and default directory for the running OS. */
export function currentSpoolDisk(env: Readonly<Record<string, string>>) {
  const windows = Deno.build.os === "windows";
  return { disk: createSpoolDisk({ windows }), defaultRoot: defaultSpoolRoot(env, windows) };
}
