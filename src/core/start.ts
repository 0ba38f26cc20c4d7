import type { Admission, SandboxGrant } from "../contract/admission.ts";
import type { ExecuteArgs } from "../contract/arguments.ts";
import { errorText } from "../contract/error_text.ts";
import * as text from "../contract/texts.ts";
import { checkStartArgs } from "./call_checks.ts";
import { Execution } from "./execution.ts";
import type { ManagerOptions } from "./manager_options.ts";
import { checkTerminalArgs, type SpawnedTree, spawnTree } from "./terminal_start.ts";
import { GRACEFUL_STOP_MS } from "./timing.ts";

/**
 * The policy's answer to `execute`: arguments no process could carry are refused first, then
 * the policy (once loaded) checks side effects, regexes, names and the cwd.
 */
export async function askPolicy(args: ExecuteArgs, options: ManagerOptions): Promise<Admission> {
  const invalid = checkStartArgs(args) ?? checkTerminalArgs(args);
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
    env: args.env ?? {},
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

/** What a tool profile may change about one start. */
export interface StartOverrides {
  /** Shell used when the call names none. @default {ManagerOptions.defaultShell} */
  defaultShell?: string;
  /** Grace between SIGTERM and SIGKILL when the timeout fires; 0 kills at once. @default {10000} */
  timeoutGraceMs?: number;
}

/** Spawns the command and wraps it in an execution, or returns why the OS refused. */
export function startExecution(
  args: ExecuteArgs,
  identity: StartIdentity,
  options: ManagerOptions & StartOverrides,
): Execution | string {
  const { limits, clock, logger, timeoutGraceMs = GRACEFUL_STOP_MS } = options;
  const spawnedMonoMs = clock.monotonicMs();
  const spawnedAtMs = clock.nowMs();
  const spawned = trySpawn(args, identity, options);
  if (typeof spawned === "string") return spawned;
  const execution = new Execution({
    ...identity,
    command: args.command,
    name: args.name ?? null,
    tree: spawned.tree,
    terminal: spawned.terminal,
    spawnedMonoMs,
    spawnedAtMs,
    clock,
    logger,
    capacityBytes: limits.maxBufferBytes,
    spool: options.spool?.forExecution() ?? null,
    redaction: spawned.redaction,
    timeoutMs: Math.max(0, args.timeout_ms ?? limits.defaultTimeoutMs),
    timeoutGraceMs,
  });
  execution.stdin.startInitialInput(spawned.initialInput.text, spawned.initialInput.close);
  return execution;
}

/**
 * How long the server must stay quiet after an execute's answer before the platform prepares
 * the next start (a standby: a spawn and two execs). A burst of calls never waits that long,
 * so it does not pay for standbys it could not use: on 2 cores, one started between calls
 * made each call slower than a plain spawn (4.0 against 3.4 ms, back to back).
 */
export const PREPARE_QUIET_MS = 10;

/** Prepares the platform's next start once the server has been quiet after an answer. */
export class NextStart {
  #processes: ManagerOptions["processes"];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(processes: ManagerOptions["processes"]) {
    this.#processes = processes;
  }

  /** After an execute's answer (written in the microtasks that follow); restarts the wait. */
  afterAnswer(): void {
    if (this.#processes.prepareNext === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#processes.prepareNext?.();
    }, PREPARE_QUIET_MS);
  }

  /** Nothing more is prepared (shutdown). */
  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** Spawns the command's tree as the call and the server's settings say, or why the OS refused. */
function trySpawn(
  args: ExecuteArgs,
  identity: StartIdentity,
  options: ManagerOptions,
): SpawnedTree | string {
  const overlay = args.env ?? {};
  try {
    return spawnTree(args, {
      shell: args.shell ?? options.defaultShell,
      command: args.command,
      cwd: identity.cwd,
      env: { ...options.baseEnv, ...overlay },
      cwdChecked: identity.cwdChecked,
      confinement: identity.sandbox?.confinement ?? null,
      reusable: args.tty !== true && Object.keys(overlay).length === 0,
    }, options);
  } catch (error) {
    return errorText(error);
  }
}
