import assert from "node:assert/strict";
import { TerminalScreen } from "../../src/terminal/terminal_screen.ts";

Deno.test("the screen shows what a terminal shows after cursor moves", async () => {
  using screen = new TerminalScreen({ cols: 20, rows: 5 });
  await screen.write("line one\r\nline two\r\n\x1b[1;6HONE\x1b[3;1Hthird");
  const snapshot = screen.snapshot();
  assert.equal(snapshot.text, "line ONE\nline two\nthird");
  assert.deepEqual(snapshot.cursor, { row: 2, col: 5 });
  assert.equal(snapshot.cursorLine, "third");
  assert.equal(snapshot.alternate, false);
  assert.deepEqual([snapshot.cols, snapshot.rows], [20, 5]);
});

Deno.test("titles, link targets and hidden text never reach the screen text", async () => {
  using screen = new TerminalScreen({ cols: 40, rows: 4 });
  await screen.write(
    "\x1b]0;evil title\x07\x1b]8;;https://evil.example\x07click\x1b]8;;\x07 \u202eabc\u{e0041}\r\n",
  );
  await screen.write("secret\r\x1b[2Kshown");
  const { text } = screen.snapshot();
  assert.equal(text, "click abc\nshown");
});

Deno.test("bytes split inside a character or a sequence render whole", async () => {
  using screen = new TerminalScreen({ cols: 20, rows: 3 });
  const bytes = new TextEncoder().encode("h\u00e9\x1b[31mllo\x1b[0m");
  for (const byte of bytes) await screen.write(new Uint8Array([byte]));
  assert.equal(screen.snapshot().text, "héllo");
});

Deno.test("the alternate screen and application cursor mode are reported", async () => {
  using screen = new TerminalScreen({ cols: 20, rows: 3 });
  await screen.write("shell$ ");
  await screen.write("\x1b[?1049h\x1b[?1h\x1b[Hfull screen");
  assert.equal(screen.snapshot().alternate, true);
  assert.equal(screen.snapshot().text, "full screen");
  assert.equal(screen.applicationCursor, true);
  await screen.write("\x1b[?1l\x1b[?1049l");
  assert.equal(screen.snapshot().text, "shell$");
  assert.equal(screen.snapshot().cursorLine, "shell$ ");
  assert.equal(screen.applicationCursor, false);
});

Deno.test("resize reflows to the new size", async () => {
  using screen = new TerminalScreen({ cols: 10, rows: 2 });
  await screen.write("0123456789abc");
  assert.equal(screen.snapshot().text, "0123456789\nabc");
  screen.resize(20, 4);
  const snapshot = screen.snapshot();
  assert.deepEqual([snapshot.cols, snapshot.rows], [20, 4]);
});
