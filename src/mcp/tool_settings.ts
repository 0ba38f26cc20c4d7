import type { Limits } from "../contract/limits.ts";
import type { ExecutionManager } from "../core/manager.ts";

/** What tool descriptions and argument defaults state: the operator's configured values. */
export interface ToolSettings extends
  Pick<
    Limits,
    "defaultYieldMs" | "maxYieldMs" | "defaultTimeoutMs" | "maxOutputBytes" | "truncation"
  > {
  /** Shell that runs a command when the call names none. */
  defaultShell: string;
  /** `side_effects` categories that `execute` refuses. */
  blockedSideEffects: readonly string[];
  /** Variables every child gets unless the call's `env` overrides them. */
  nonInteractiveEnv: Readonly<Record<string, string>>;
  /** The OS sandbox mode; results name their profile unless it is off. @default {"off"} */
  sandbox?: "off" | "declared" | "strict";
  /**
   * The server can open pseudo-terminals (`tty: true`); without, the terminal parameters are
   * not listed, and `tty: true` says why it fails. @default {false}
   */
  terminals?: boolean;
}

/** What a tool's registration needs: the core and the operator's settings. */
export interface ToolOptions {
  manager: ExecutionManager;
  settings: ToolSettings;
}
