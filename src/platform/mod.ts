import type { ProcessControl } from "../core/process.ts";
import type { TerminalControl } from "../core/terminal_port.ts";
import { findSetsid } from "./find_program.ts";
import { type OsFacts, POSIX_FACTS } from "./os_facts.ts";
import { createPosixControl, type PosixOptions } from "./posix.ts";
import { createPosixShared } from "./posix_shared.ts";
import {
  createPosixTerminals,
  createPtyBackend,
  darwinPtyAbi,
  LINUX_PTY_ABI,
  type PtyAbi,
  type PtyBackend,
  unsupportedPtyBackend,
  unsupportedTerminals,
  WINDOWS_UNSUPPORTED,
} from "./pty/mod.ts";
import { openSandbox, type OpenSandboxOptions } from "./sandbox.ts";
import type { Sandbox, SandboxOpening } from "./sandbox_types.ts";
import { DARWIN_SIGNALS, LINUX_SIGNALS } from "./signal_numbers.ts";
import { createSpoolDisk, defaultSpoolRoot } from "./spool_disk.ts";
import { WINDOWS_FACTS, WindowsControl } from "./windows.ts";

export type { OsFacts } from "./os_facts.ts";
export { isDirectory, realPath } from "./file_probe.ts";
export type { Argv, Confinement, Sandbox, SandboxOpening } from "./sandbox_types.ts";
export type { PtyBackend, PtyProcess, PtySpawnRequest, PtyState } from "./pty/mod.ts";

/** The running OS: facts for the process edge, and the core's process and terminal ports. */
export interface Platform {
  facts: OsFacts;
  processes: ProcessControl;
  /** Pseudo-terminals for `tty: true` (libc FFI; Windows: not yet). */
  terminals: TerminalControl;
}

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
      return {
        facts: WINDOWS_FACTS,
        processes: new WindowsControl(),
        // TODO(#17): ConPTY on Windows.
        terminals: unsupportedTerminals(WINDOWS_UNSUPPORTED),
      };
    case "darwin":
      return posixPlatform({
        signals: DARWIN_SIGNALS,
        containment: false,
        selfPid: Deno.pid,
        setsidPath: null,
        sandbox,
        execInPlace: true,
      }, darwinPtyAbi(Deno.build.arch === "aarch64"));
    default:
      return posixPlatform({
        signals: LINUX_SIGNALS,
        containment: Deno.build.os === "linux",
        selfPid: Deno.pid,
        setsidPath: Deno.build.os === "linux" ? findSetsid() : null,
        sandbox,
        standby: true,
        execInPlace: true,
      }, LINUX_PTY_ABI);
  }
}

/** Pipes and terminals of one POSIX system, sharing one containment. */
function posixPlatform(options: PosixOptions, abi: PtyAbi): Platform {
  const shared = createPosixShared(options);
  const backend = createPtyBackend({ abi, signals: options.signals });
  return {
    facts: POSIX_FACTS,
    processes: createPosixControl(options, shared),
    terminals: createPosixTerminals(backend, shared, options.selfPid),
  };
}

/** The raw pseudo-terminal backend of this OS (tests and benchmarks of the backend itself). */
export function currentPtyBackend(): PtyBackend {
  switch (Deno.build.os) {
    case "windows":
      return unsupportedPtyBackend(WINDOWS_UNSUPPORTED);
    case "darwin":
      return createPtyBackend({
        abi: darwinPtyAbi(Deno.build.arch === "aarch64"),
        signals: DARWIN_SIGNALS,
      });
    default:
      return createPtyBackend({ abi: LINUX_PTY_ABI, signals: LINUX_SIGNALS });
  }
}

/** The OS sandbox for the `sandbox` setting, after its self-test, or the startup error. */
export function currentSandbox(
  mode: OpenSandboxOptions["mode"],
  bwrap?: OpenSandboxOptions["bwrap"],
): Promise<SandboxOpening> {
  return openSandbox({ os: Deno.build.os, mode, bwrap });
}

/** The output spool's file operations and default directory for the running OS. */
export function currentSpoolDisk(env: Readonly<Record<string, string>>) {
  const windows = Deno.build.os === "windows";
  return { disk: createSpoolDisk({ windows }), defaultRoot: defaultSpoolRoot(env, windows) };
}
