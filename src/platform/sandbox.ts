import { bwrapArgv } from "./bwrap.ts";
import { type BwrapProbeOptions, probeBubblewrap } from "./bwrap_probe.ts";
import type { SandboxOpening } from "./sandbox_types.ts";
import { SANDBOX_EXEC, sandboxExecArgv } from "./seatbelt.ts";

/** Options of `openSandbox`. */
export interface OpenSandboxOptions {
  /** The operating system (`linux`, `darwin`, ...), passed in by `mod.ts`, which reads it. */
  os: string;
  /** The `sandbox` setting (policy's `SandboxMode`). */
  mode: "off" | "declared" | "strict";
  /** Where to find bubblewrap and coreutils `env` (Linux). */
  bwrap?: BwrapProbeOptions;
}

/**
 * Until bubblewrap has built the sandbox and its init has set its traps (a few milliseconds on an
 * idle machine), stop signals meet only processes that ignore them; this bounds that time with a
 * margin for loaded machines.
 */
const BWRAP_SETUP_MS = 500;

const OFF = "set sandbox to off (--sandbox off, YIELDSHELL_SANDBOX=off)";

/**
 * The startup step of the sandbox: nothing for `off`; otherwise the OS sandbox after a real
 * self-test, or the error that stops startup (naming the package or kernel setting to change).
 * Linux uses bubblewrap, macOS `sandbox-exec`; other systems have none and refuse.
 */
export async function openSandbox(options: OpenSandboxOptions): Promise<SandboxOpening> {
  const { os, mode } = options;
  if (mode === "off") return { ok: true, sandbox: null };
  switch (os) {
    case "linux":
      return await openBubblewrap(options);
    case "darwin":
      return await openSandboxExec();
    default:
      return {
        ok: false,
        error: `Cannot start with sandbox: ${mode} as yieldshell has no OS sandbox on ${os}; ` +
          `${OFF}, or run yieldshell on Linux (bubblewrap) or macOS (sandbox-exec)`,
      };
  }
}

/** Linux: bubblewrap, once its self-test passed. */
async function openBubblewrap(options: OpenSandboxOptions): Promise<SandboxOpening> {
  const probe = await probeBubblewrap(options.bwrap);
  if (!probe.ok) return probe;
  const { host } = probe;
  return {
    ok: true,
    sandbox: {
      name: "bubblewrap",
      wrap: (command, limits) => bwrapArgv(command, limits, host),
      signalExitCodes: true,
      setupMs: BWRAP_SETUP_MS,
      endsWithSpawned: true,
    },
  };
}

/** macOS: `sandbox-exec`, once it ran a trivial profile. */
async function openSandboxExec(): Promise<SandboxOpening> {
  const failure = await sandboxExecFailure();
  if (failure !== null) {
    return {
      ok: false,
      error: `Cannot start the sandbox as sandbox-exec does not work (${failure}); ${OFF}`,
    };
  }
  return {
    ok: true,
    sandbox: {
      name: "sandbox-exec",
      wrap: sandboxExecArgv,
      signalExitCodes: false,
      setupMs: 0,
      endsWithSpawned: false,
    },
  };
}

async function sandboxExecFailure(): Promise<string | null> {
  try {
    const output = await new Deno.Command(SANDBOX_EXEC, {
      args: ["-p", "(version 1)\n(allow default)\n", "/usr/bin/true"],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (output.success) return null;
    return new TextDecoder().decode(output.stderr).trim() || `exit code ${output.code}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
