import type { ProcessControl } from "../core/process.ts";
import { findSetsid } from "./find_program.ts";
import { type OsFacts, POSIX_FACTS } from "./os_facts.ts";
import { createPosixControl } from "./posix.ts";
import { DARWIN_SIGNALS, LINUX_SIGNALS } from "./signal_numbers.ts";
import { openSandbox, type OpenSandboxOptions } from "./sandbox.ts";
import type { Sandbox, SandboxOpening } from "./sandbox_types.ts";
import { WINDOWS_FACTS, WindowsControl } from "./windows.ts";

export type { OsFacts } from "./os_facts.ts";
export { isDirectory, realPath } from "./file_probe.ts";

/** The running OS: facts for the process edge, and the core's process port. */
export interface Platform {
  facts: OsFacts;
  processes: ProcessControl;
}

export type { Argv, Confinement, Sandbox, SandboxOpening } from "./sandbox_types.ts";

/** The running OS's edge facts (path separators, shutdown signals, default shell). */
export function currentFacts(): OsFacts {
  return Deno.build.os === "windows" ? WINDOWS_FACTS : POSIX_FACTS;
}

/**
 * Picks the adapter for the running OS; the only place that branches on it. `sandbox` is the
 * OS sandbox `currentSandbox` opened, for executions the policy confines.
 */
export function currentPlatform(sandbox: Sandbox | null = null): Platform {
  switch (Deno.build.os) {
    case "windows":
      return { facts: WINDOWS_FACTS, processes: new WindowsControl() };
    case "darwin":
      return {
        facts: POSIX_FACTS,
        processes: createPosixControl({
          signals: DARWIN_SIGNALS,
          containment: false,
          selfPid: Deno.pid,
          setsidPath: null,
          sandbox,
        }),
      };
    default:
      return {
        facts: POSIX_FACTS,
        processes: createPosixControl({
          signals: LINUX_SIGNALS,
          containment: Deno.build.os === "linux",
          selfPid: Deno.pid,
          setsidPath: Deno.build.os === "linux" ? findSetsid() : null,
          sandbox,
        }),
      };
  }
}

/** The OS sandbox for the `sandbox` setting, after its self-test, or the startup error. */
export function currentSandbox(
  mode: OpenSandboxOptions["mode"],
  bwrap?: OpenSandboxOptions["bwrap"],
): Promise<SandboxOpening> {
  return openSandbox({ os: Deno.build.os, mode, bwrap });
}
