import { pythonRepr } from "./python_repr.ts";

/** Terminal size when `execute` names none. */
export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 40;
/** Sizes a terminal may have (the screen emulator needs 2 columns). */
export const SIZE_LIMITS = { cols: { min: 2, max: 1000 }, rows: { min: 1, max: 1000 } } as const;

export const SIZE_WITHOUT_TTY =
  "Cannot use cols or rows without tty: true; pass tty: true to run on a terminal of that size, or leave them out";

/** A terminal size out of range. */
export function invalidSize(name: "cols" | "rows", value: number): string {
  const { min, max } = SIZE_LIMITS[name];
  return `Cannot size the terminal as ${name} must be an integer from ${min} to ${max}: received ${value}`;
}

/** A `tty: true` execution the sandbox would confine: terminals do not run in the OS sandbox. */
export function terminalSandboxed(label: string): string {
  return `Cannot run with tty: true inside the OS sandbox (${label}) as terminals run unconfined; ` +
    "run the command without tty, or ask the operator for a server without a sandbox mode";
}

/** Keys or a resize sent to an execution that has no terminal. */
export function notATerminal(id: string, what: "send keys to" | "resize"): string {
  return `Cannot ${what} execution ${
    pythonRepr(id)
  } as it runs without a terminal; write text with input, or start the command with tty: true`;
}

/** A text view asked of an execution that has no terminal. */
export function viewNeedsTerminal(id: string, view: string): string {
  return `Cannot show the ${view} view of execution ${
    pythonRepr(id)
  } as it runs without a terminal; leave view out or pass "raw", or start the command with tty: true`;
}
