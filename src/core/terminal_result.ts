import type { TerminalViewChoice } from "../contract/arguments.ts";
import type { PageFields, TerminalFields } from "../contract/results.ts";
import type { Clock } from "./clock.ts";
import type { Execution } from "./execution.ts";
import type { PageRequest } from "./page.ts";
import { terminalFields } from "./terminal_fields.ts";
import { applyView, type ShownView } from "./terminal_view.ts";

/** How a result of a terminal execution is shown. */
export interface ShowRequest {
  page: PageRequest;
  /** The view asked for; null or undefined: `auto`. */
  view: TerminalViewChoice | null | undefined;
  /** The server's response cap. */
  capBytes: number;
}

/** Puts a terminal execution's page into its view (await it); null (page untouched) for pipes. */
export function showTerminalPage(
  execution: Execution,
  page: PageFields,
  request: ShowRequest,
): Promise<ShownView> | null {
  const session = execution.terminal;
  if (session === null) return null;
  const { sinceSeq, tailLines, streams, maxOutputBytes, truncation } = request.page;
  // The resume path of `head` moves the cursor; `tail` leaves it where it is, screen or not.
  const resume = sinceSeq === null && tailLines === null && streams === "both" &&
    truncation === "head";
  const maxBytes = maxOutputBytes === null || maxOutputBytes === undefined || maxOutputBytes <= 0
    ? request.capBytes
    : Math.min(maxOutputBytes, request.capBytes);
  return applyView(execution, session, page, { choice: request.view ?? "auto", resume, maxBytes });
}

/** `result` with a terminal execution's fields after the contract's; pipes: unchanged. */
export async function withTerminalFields<R extends object>(
  execution: Execution,
  result: R,
  shown: ShownView | null,
  clock: Clock,
): Promise<R & TerminalFields> {
  const session = execution.terminal;
  if (session === null || shown === null) return result;
  return { ...result, ...await terminalFields(execution, session, shown, clock) };
}
