import type { TerminalControl, TerminalSpawnRequest } from "../../core/terminal_port.ts";
import type { PosixShared } from "../posix_shared.ts";
import { createTerminalTree } from "./terminal_tree.ts";
import type { PtyBackend } from "./types.ts";

/**
 * Terminal executions on POSIX: each runs on its own pseudo-terminal, carries a containment
 * token and is guarded like a pipe execution, sharing the pipe adapter's containment.
 */
export function createPosixTerminals(
  backend: PtyBackend,
  shared: PosixShared,
  selfPid: number,
): TerminalControl {
  const { containment, tokens } = shared;
  return {
    unavailable: () => backend.unavailable(),
    spawn(request: TerminalSpawnRequest) {
      const token = containment.newToken();
      const pty = backend.spawn({ ...request, env: containment.tag(request.env, token) });
      const tree = createTerminalTree({ pty, token, containment, selfPid });
      tokens.set(tree, token);
      return tree;
    },
  };
}

/** Terminals where there are none (Windows): every spawn fails with `reason`. */
export function unsupportedTerminals(reason: string): TerminalControl {
  return {
    unavailable: () => reason,
    spawn() {
      throw new Error(reason);
    },
  };
}
