import type { ProcessTree } from "../core/process.ts";
import { Containment } from "./containment.ts";
import { ProcessTable } from "./process_table.ts";

/**
 * What the POSIX pipe and terminal adapters share: one process table, one containment (one
 * guardian), and the token of every tree either started, so one sweep finds the strays of both.
 */
export interface PosixShared {
  table: ProcessTable;
  containment: Containment;
  /** The token of each tree started (null when tokens are off). */
  tokens: WeakMap<ProcessTree, string | null>;
}

/** A fresh shared set; `containment` turns tokens on (Linux). */
export function createPosixShared(options: { containment: boolean; selfPid: number }): PosixShared {
  const table = new ProcessTable(options.containment);
  const containment = new Containment({
    tokens: options.containment,
    selfPid: options.selfPid,
    table,
  });
  return { table, containment, tokens: new WeakMap() };
}
