import type { TerminalViewChoice } from "../contract/arguments.ts";
import type { PageFields } from "../contract/results.ts";
import * as text from "../contract/texts.ts";
import { plainText } from "../terminal/plain_text_view.ts";
import type { Execution } from "./execution.ts";
import type { TerminalSession } from "./terminal_session.ts";

/** The view a terminal result's `stdout` holds. */
export type ShownView = "text" | "screen" | "raw";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Said when the screen is larger than the response cap and its top rows were left out. */
const SCREEN_CAPPED_HINT =
  "The screen is larger than max_output_bytes, so its top rows were left out; raise max_output_bytes to see all of it.";

/**
 * Turns a raw page of a terminal execution into the chosen view, in place. `text` removes
 * escapes and collapses `\r` lines of the page; `screen` replaces it with the whole screen as
 * of now (so the page reaches `latest_seq`, and a resume read moves the cursor there); `auto`
 * is `screen` while the program is in the alternate screen or this page paints in two
 * dimensions, else `text`. Cursors keep counting raw bytes.
 */
export async function applyView(
  execution: Execution,
  session: TerminalSession,
  page: PageFields,
  request: { choice: TerminalViewChoice; resume: boolean; maxBytes: number },
): Promise<ShownView> {
  const { choice } = request;
  if (choice === "raw") return "raw";
  const stream = plainText(page.stdout);
  const shown = choice !== "auto"
    ? choice
    : await drawn(execution, session, page.stdout, stream.lossy)
    ? "screen"
    : "text";
  if (shown === "text") {
    page.stdout = stream.text;
    return "text";
  }
  const screen = await session.snapshot(execution.log);
  const latest = execution.log.latestSeq;
  if (request.resume) execution.advanceResumeCursor(latest);
  const fitted = fitToCap(execution.redaction.text(screen.text), request.maxBytes);
  Object.assign(page, { stdout: fitted.text, next_seq: latest, latest_seq: latest, capped: false });
  const hints = [fitted.cut ? SCREEN_CAPPED_HINT : null, page.evicted ? text.EVICTED_HINT : null]
    .filter((hint) => hint !== null);
  if (hints.length > 0) page.hint = hints.join(" ");
  else delete page.hint;
  return "screen";
}

/**
 * Whether the program paints the screen: this page moves the cursor across lines, or the
 * program is in the alternate screen (asked of the emulator only when escapes were seen, so
 * plain output never loads it).
 */
async function drawn(
  execution: Execution,
  session: TerminalSession,
  raw: string,
  lossy: boolean,
): Promise<boolean> {
  if (lossy) return true;
  if (!session.screenStarted && !raw.includes("\x1b")) return false;
  return (await session.snapshot(execution.log)).alternate;
}

/** The screen's bottom rows that fit in `maxBytes` of UTF-8 (the cursor is usually there). */
function fitToCap(screen: string, maxBytes: number): { text: string; cut: boolean } {
  if (encoder.encode(screen).length <= maxBytes) return { text: screen, cut: false };
  const rows = screen.split("\n");
  while (rows.length > 1 && encoder.encode(rows.join("\n")).length > maxBytes) rows.shift();
  const last = encoder.encode(rows.join("\n")).slice(0, maxBytes);
  return { text: decoder.decode(last).replace(/\uFFFD$/, ""), cut: true };
}
