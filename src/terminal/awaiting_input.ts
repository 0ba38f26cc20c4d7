/** Output idle this long with the cursor after text on its row reads as a prompt. */
export const DEFAULT_PROMPT_IDLE_MS = 500;

/** What the terminal tells about a program that may be waiting for the agent. */
export interface InputSignals {
  /** The line discipline echoes typed characters. */
  echo: boolean;
  /** Canonical (line) input; off in raw mode (readline, full-screen programs). */
  canonical: boolean;
  /** Milliseconds since the last output. */
  idleMs: number;
  /** Text left of the cursor on its row (a prompt such as `Name: ` or `>>> `). */
  cursorLine: string;
  /** @default {DEFAULT_PROMPT_IDLE_MS} */
  promptIdleMs?: number;
}

/**
 * Why a program waits for input: `password` (echo off in line mode, as `getpass`, `read -s`,
 * `sudo` and `ssh` set it; what is typed now is secret), `prompt` (quiet with the cursor
 * after text), or `keys` (quiet in raw mode: a REPL line editor or a full-screen program).
 */
export type AwaitingInput =
  | { awaiting: false }
  | { awaiting: true; reason: "password" | "prompt" | "keys" };

/**
 * Whether the program is waiting for input (`awaiting_input`), so the agent writes instead of
 * waiting for a timeout. Readline turns echo off too, but also leaves line mode; only echo off
 * in line mode is a password prompt.
 */
export function detectAwaitingInput(signals: InputSignals): AwaitingInput {
  const { echo, canonical, idleMs, cursorLine, promptIdleMs = DEFAULT_PROMPT_IDLE_MS } = signals;
  if (!echo && canonical) return { awaiting: true, reason: "password" };
  if (idleMs < promptIdleMs) return { awaiting: false };
  if (cursorLine.trim() !== "") return { awaiting: true, reason: "prompt" };
  if (!canonical) return { awaiting: true, reason: "keys" };
  return { awaiting: false };
}

/** Whether text typed now stays off the screen: echo off in line mode (a password prompt). */
export function isSecretInput(state: { echo: boolean; canonical: boolean }): boolean {
  return !state.echo && state.canonical;
}
