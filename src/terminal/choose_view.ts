/** The text views of a terminal execution. */
export type TerminalView = "stream" | "screen";

/**
 * The default view: the stream (new lines only, each once, the cheapest in tokens) unless it
 * would lose information: when the program moved the cursor across lines, cleared the screen
 * or is in the alternate screen (top, vim, less, progress bars over several lines), the screen
 * is what a person would see, so the screen it is.
 */
export function chooseView(stream: { lossy: boolean; alternateScreen: boolean }): TerminalView {
  return stream.lossy || stream.alternateScreen ? "screen" : "stream";
}
