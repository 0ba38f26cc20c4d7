import type { Admission, SandboxGrant } from "../contract/admission.ts";
import type { ExecuteArgs } from "../contract/arguments.ts";
import { errorText } from "../contract/error_text.ts";
import * as text from "../contract/texts.ts";
import { checkStartArgs } from "./call_checks.ts";
import { Execution } from "./execution.ts";
import type { ManagerOptions } from "./manager_options.ts";
import type { ProcessTree } from "./process.ts";
import { GRACEFUL_STOP_MS } from "./timing.ts";

/**
 * The policy's answer to `execute`: arguments no process could carry are refused first, then
 * the policy (once loaded) checks side effects, regexes, names and the cwd.
 */
export async function askPolicy(args: ExecuteArgs, options: ManagerOptions): Promise<Admission> {
  const invalid = checkStartArgs(args);
  if (invalid !== null) return { allow: false, reason: invalid };
  if (options.ready !== undefined) {
    try {
      await options.ready;
    } catch (error) {
      return { allow: false, reason: text.policyNotLoaded(errorText(error)) };
    }
  }
  return options.admit({
    command: args.command,
    sideEffects: args.side_effects,
    shell: args.shell ?? null,
    cwd: args.cwd ?? null,
  });
}

/** Who an execution belongs to and what it is called. */
export interface StartIdentity {
  id: string;
  owner: string;
  /** The admitted working directory. */
  cwd: string;
  /** The cwd was checked against allowed roots, so the spawn must start exactly there. */
  cwdChecked: boolean;
  /** The sandbox it runs in; null when the sandbox is off. */
  sandbox: SandboxGrant | null;
}

/** Spawns the command and wraps it in an execution, or returns why the OS refused. */
export function startExecution(
  args: ExecuteArgs,
  identity: StartIdentity,
  options: ManagerOptions,
): Execution | string {
  const { limits, clock, logger } = options;
  const overlay = args.env ?? {};
  const spawnedMonoMs = clock.monotonicMs();
  const spawnedAtMs = clock.nowMs();
  let tree: ProcessTree;
  try {
    tree = options.processes.spawn({
      shell: args.shell ?? options.defaultShell,
      command: args.command,
      cwd: identity.cwd,
      env: { ...options.baseEnv, ...overlay },
      cwdChecked: identity.cwdChecked,
      confinement: identity.sandbox?.confinement ?? null,
    });
  } catch (error) {
    return errorText(error);
  }
  const execution = new Execution({
    ...identity,
    command: args.command,
    name: args.name ?? null,
    tree,
    spawnedMonoMs,
    spawnedAtMs,
    clock,
    logger,
    capacityBytes: limits.maxBufferBytes,
    redaction: options.redactionFor(overlay),
    timeoutMs: Math.max(0, args.timeout_ms ?? limits.defaultTimeoutMs),
    timeoutGraceMs: GRACEFUL_STOP_MS,
  });
  execution.stdin.startInitialInput(args.stdin ?? null, args.close_stdin ?? true);
  return execution;
}
