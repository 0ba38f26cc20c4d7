import { z } from "zod";
import { DEFAULT_COLS, DEFAULT_ROWS, SIZE_LIMITS } from "../contract/terminal_texts.ts";
import { integer } from "./schemas.ts";

/** `tty` of `execute`; `available`: this server can open terminals (started with -P=tty). */
export function ttyFlag(available: boolean) {
  return z.boolean().default(false).describe(
    available
      ? "Run on a pseudo-terminal (REPLs, prompts, top, sudo): one output stream, stdin open"
      : "Run on a pseudo-terminal; not available on this server",
  );
}

/** `close_stdin` of `execute`: with terminals, its default depends on `tty`. */
export function closeStdin(available: boolean) {
  return available
    ? z.boolean().optional().meta({ default: true }).describe(
      "Close stdin after stdin (EOF); false keeps it open for write. With tty: default false, true types C-d",
    )
    : z.boolean().default(true).describe(
      "Close stdin after stdin (EOF); false keeps it open for write",
    );
}

/** `cols` or `rows`: of `execute` (the size to start with) or `write` (a resize). */
export function terminalSize(name: "cols" | "rows", use: "execute" | "write") {
  const { min, max } = SIZE_LIMITS[name];
  const fallback = name === "cols" ? DEFAULT_COLS : DEFAULT_ROWS;
  return integer().nullable().optional().describe(
    `tty ${name}, ${min}..${max}${use === "execute" ? `; default ${fallback}` : ": resize, first"}`,
  );
}

/** `keys` of `write`. */
export const keys = z.array(z.string().max(64)).max(1024).nullable().optional().describe(
  "tty: keys typed after input: Enter Tab Esc Backspace Up Down Left Right PageUp F1 C-c M-x...",
);

/** `view` of `read` and `wait`. */
export const view = z.enum(["auto", "text", "screen", "raw"]).nullable().default("auto").describe(
  "tty: text strips escapes; screen renders the screen now; auto: text, or screen if drawn",
);

/** What results of a terminal execution add. */
export const terminalFields = {
  tty: z.object({}).loose().optional().describe(
    'tty: {cols, rows, view of stdout, output: "stdout" (one stream)}',
  ),
  awaiting_input: z.enum(["password", "prompt", "keys"]).nullable().optional().describe(
    "tty: it waits for input (password: writes are redacted)",
  ),
};
