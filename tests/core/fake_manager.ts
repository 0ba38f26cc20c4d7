import { systemClock } from "../../src/core/clock.ts";
import { createPortProbe } from "../../src/platform/port_probe.ts";
import { RegexWorker } from "../../src/core/regex_worker.ts";
import type { Limits } from "../../src/contract/limits.ts";
import { ExecutionManager } from "../../src/core/manager.ts";
import type { ManagerOptions } from "../../src/core/manager_options.ts";
import { fakeProcesses, type FakeScript } from "./fake_processes.ts";

/** The contract's defaults, with no timeout so that nothing runs on its own. */
export const TEST_LIMITS: Limits = {
  maxOutputBytes: 20_000,
  maxBufferBytes: 262_144,
  maxProcesses: 50,
  defaultYieldMs: 5_000,
  maxYieldMs: 300_000,
  defaultTimeoutMs: 0,
  processRetentionMs: 3_600_000,
  maxRetainedProcesses: 100,
  keepaliveIntervalMs: 5_000,
  truncation: "head",
};

/** What a fake manager is built from; everything has a default. */
export interface FakeManagerOptions {
  scripts?: Map<string, FakeScript>;
  limits?: Partial<Limits>;
  admit?: ManagerOptions["admit"];
  ready?: Promise<void>;
}

/**
 * A real execution manager over in-memory processes, a clock the test moves by hand (`advance`)
 * and a logger that keeps its warnings.
 */
export function fakeManager(options: FakeManagerOptions = {}) {
  const { processes, signals } = fakeProcesses(options.scripts ?? new Map());
  let nowMs = 1_700_000_000_000;
  const warnings: string[] = [];
  const manager = new ExecutionManager({
    processes,
    admit: options.admit ?? (() => ({ allow: true, cwd: "/tmp" })),
    ready: options.ready,
    redactionFor: () => ({ text: (text) => text, stream: () => null }),
    baseEnv: {},
    defaultShell: "/bin/sh",
    limits: { ...TEST_LIMITS, ...options.limits },
    clock: { nowMs: () => nowMs, monotonicMs: () => nowMs },
    logger: { warn: (message) => warnings.push(message) },
    until: { regex: new RegexWorker(), probe: createPortProbe(), clock: systemClock },
  });
  return { manager, signals, warnings, advance: (ms: number) => nowMs += ms };
}
