import type { ExecuteArgs } from "../contract/arguments.ts";
import {
  DEFAULT_COLS,
  DEFAULT_ROWS,
  invalidSize,
  SIZE_LIMITS,
  SIZE_WITHOUT_TTY,
} from "../contract/terminal_texts.ts";
import { GrowingRedaction } from "./growing_redaction.ts";
import type { ManagerOptions } from "./manager_options.ts";
import type { ProcessTree, SpawnRequest } from "./process.ts";
import type { Redaction } from "./redaction.ts";
import { TerminalSession, type TerminalSize } from "./terminal_session.ts";

/** Said when the composition root gave the core no terminals at all. */
const NO_TERMINALS = "Cannot run with tty: true as this server has no terminal support";
/** What a terminal types for end of input (at the start of a line): C-d. */
export const END_OF_INPUT = "\x04";

/** What a spawn hands the execution. */
export interface SpawnedTree {
  tree: ProcessTree;
  terminal: TerminalSession | null;
  redaction: Redaction;
  /** The initial input and whether stdin closes after it. */
  initialInput: { text: string | null; close: boolean };
}

/** Why the terminal arguments of `execute` cannot be used, or null. */
export function checkTerminalArgs(args: ExecuteArgs): string | null {
  const sized = (args.cols ?? null) !== null || (args.rows ?? null) !== null;
  if (args.tty !== true) return sized ? SIZE_WITHOUT_TTY : null;
  return checkSize(terminalSize(args));
}

/** Why a terminal cannot have `size`, or null. */
export function checkSize(size: TerminalSize): string | null {
  for (const name of ["cols", "rows"] as const) {
    const { min, max } = SIZE_LIMITS[name];
    const value = size[name];
    if (!Number.isInteger(value) || value < min || value > max) return invalidSize(name, value);
  }
  return null;
}

/**
 * Spawns the command on pipes, or with `tty: true` on a terminal: then output is one stream,
 * stdin stays open unless `close_stdin` is true (which types end of input, C-d), and the
 * redaction can learn what is typed at password prompts. Throws with a `failed_to_start` text.
 */
export function spawnTree(
  args: ExecuteArgs,
  request: SpawnRequest,
  options: ManagerOptions,
): SpawnedTree {
  const overlay = args.env ?? {};
  const stdin = args.stdin ?? null;
  if (args.tty !== true) {
    return {
      tree: options.processes.spawn(request),
      terminal: null,
      redaction: options.redactionFor(overlay),
      initialInput: { text: stdin, close: args.close_stdin ?? true },
    };
  }
  if (options.terminals === undefined) throw new Error(NO_TERMINALS);
  const size = terminalSize(args);
  const tree = options.terminals.spawn({ ...request, ...size });
  const typed = args.close_stdin === true ? `${stdin ?? ""}${END_OF_INPUT}` : stdin;
  const redaction = new GrowingRedaction((added) => options.redactionFor(overlay, added));
  return {
    tree,
    terminal: new TerminalSession(tree, size, redaction),
    redaction,
    initialInput: { text: typed, close: false },
  };
}

function terminalSize(args: ExecuteArgs): TerminalSize {
  return { cols: args.cols ?? DEFAULT_COLS, rows: args.rows ?? DEFAULT_ROWS };
}
