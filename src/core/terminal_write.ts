import type { WriteArgs } from "../contract/arguments.ts";
import { errorText } from "../contract/error_text.ts";
import { notATerminal } from "../contract/terminal_texts.ts";
import * as text from "../contract/texts.ts";
import { encodeKeys } from "../terminal/keys.ts";
import type { Execution } from "./execution.ts";
import { checkSize, END_OF_INPUT } from "./terminal_start.ts";
import type { TerminalSession } from "./terminal_session.ts";

/** Enter on a terminal: the line discipline turns it into a newline in line mode. */
const ENTER = "\r";

/** Why `write`'s terminal arguments cannot go to a pipe execution, or null. */
export function checkPipeWrite(args: WriteArgs): string | null {
  if ((args.keys?.length ?? 0) > 0) return notATerminal(args.execution_id, "send keys to");
  const sized = (args.cols ?? null) !== null || (args.rows ?? null) !== null;
  return sized ? notATerminal(args.execution_id, "resize") : null;
}

/**
 * `write` to a terminal execution, in this order: the resize, the text (`newline` adds Enter),
 * the keys, then end of input (C-d) for `close_stdin`; the terminal stays open for more.
 * Keys and size are checked before anything is sent. Null on success, else the error.
 */
export async function writeTerminal(
  execution: Execution,
  session: TerminalSession,
  args: WriteArgs,
  timeoutMs: number,
): Promise<string | null> {
  const { stdin } = execution;
  if (stdin.busy) return text.STDIN_BUSY;
  const size = { ...session.size, ...definedSize(args) };
  const badSize = checkSize(size);
  if (badSize !== null) return badSize;
  let keys = "";
  try {
    const applicationCursor = (args.keys?.length ?? 0) > 0 &&
      await session.applicationCursor(execution.log);
    keys = encodeKeys(args.keys ?? [], { applicationCursor });
    if (definedSize(args) !== null) session.resize(size);
  } catch (error) {
    return errorText(error);
  }
  const typed = args.newline ? `${args.input}${ENTER}` : args.input;
  session.noteTyped(typed);
  const all = `${typed}${keys}${args.close_stdin ? END_OF_INPUT : ""}`;
  return all === "" ? null : await stdin.write(all, timeoutMs);
}

function definedSize(args: WriteArgs): { cols?: number; rows?: number } | null {
  const size: { cols?: number; rows?: number } = {};
  if (args.cols !== null && args.cols !== undefined) size.cols = args.cols;
  if (args.rows !== null && args.rows !== undefined) size.rows = args.rows;
  return Object.keys(size).length === 0 ? null : size;
}
