import assert from "node:assert/strict";
import fc from "fast-check";
import { plainText, PlainTextView } from "../../src/terminal/plain_text_view.ts";

/** Fixed (printed) so runs are reproducible; `YIELDSHELL_TEST_SEED=<n>` replays another. */
const SEED = Number(Deno.env.get("YIELDSHELL_TEST_SEED") ?? 20_260_617);
console.log(`plain text view properties: fast-check seed ${SEED}`);

Deno.test("escape sequences never reach the stream view", async (t) => {
  const table: [string, string, string][] = [
    ["colours", "\x1b[1;31mred\x1b[0m plain\r\n", "red plain\n"],
    ["title change (BEL)", "\x1b]0;rm -rf / is safe\x07ok\r\n", "ok\n"],
    ["title change (ST)", "\x1b]2;evil title\x1b\\ok\r\n", "ok\n"],
    [
      "OSC 8 link keeps its text, drops its target",
      "\x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\\r\n",
      "docs\n",
    ],
    ["clipboard write (OSC 52)", "\x1b]52;c;cm0gLXJmIH4=\x07done\n", "done\n"],
    [
      "DCS, APC, PM, SOS strings",
      "a\x1bPq#0;2;0;0;0\x1b\\b\x1b_apc\x1b\\c\x1b^pm\x1b\\d\x1bXsos\x1b\\e\n",
      "abcde\n",
    ],
    ["8-bit C1 CSI and OSC", "\u009b31mx\u009b0m\u009d0;t\u0007y\n", "xy\n"],
    ["charset designation", "\x1b(Bplain\x1b)0\n", "plain\n"],
    ["keypad and cursor visibility modes", "\x1b=\x1b[?25l\x1b[?1h\x1b[?2004hz\x1b>\n", "z\n"],
    ["bell and other C0 controls", "a\x07b\x00c\x01d\x7fe\n", "abcde\n"],
    ["CAN aborts a sequence", "\x1b[31\x18m\n", "m\n"],
    ["ESC inside OSC starts a new sequence", "\x1b]0;t\x1b[1mbold\n", "bold\n"],
    ["bidi overrides and tag characters", "ab\u202ecd\u2066e\u{e0041}\u{e0042}f\n", "abcdef\n"],
  ];
  for (const [name, raw, text] of table) {
    await t.step(name, () => assert.equal(plainText(raw).text, text));
  }
});

Deno.test("each line reads as it finally shows on the terminal", async (t) => {
  const table: [string, string, string][] = [
    ["CRLF from the terminal's output processing", "one\r\ntwo\r\n", "one\ntwo\n"],
    ["\\r progress updates collapse", "10%\r50%\r100%\r\n", "100%\n"],
    ["a shorter rewrite leaves the tail, as on screen", "downloading\rdone\n", "doneloading\n"],
    ["erase line then rewrite", "[###   ] 50%\r\x1b[2K[######] 100%\n", "[######] 100%\n"],
    ["erase to end of line", "abcdef\r\x1b[Kxy\n", "xy\n"],
    ["erase to start of line", "abcdef\x1b[1Kg\n", "      g\n"],
    ["\\r then erase (pip, npm)", "Collecting x\r\x1b[KInstalled x\n", "Installed x\n"],
    ["backspace overwrites", "abc\b\bXY\n", "aXY\n"],
    ["backspace at column 0 stays", "\b\bab\n", "ab\n"],
    ["column absolute", "abcdef\x1b[3GX\n", "abXdef\n"],
    ["cursor forward pads", "a\x1b[3Cb\n", "a   b\n"],
    ["cursor back", "abc\x1b[2DX\n", "aXc\n"],
    ["erase characters", "abcdef\x1b[1G\x1b[3X\n", "   def\n"],
    ["delete characters", "abcdef\x1b[2G\x1b[2P\n", "adef\n"],
    ["insert blanks", "abcdef\x1b[2G\x1b[2@\n", "a  bcdef\n"],
    ["tabs at the end of a line stay tabs", "a\tb\tc\n", "a\tb\tc\n"],
    ["a tab inside a line only moves the cursor", "abcdefghij\r\tX\n", "abcdefghXj\n"],
    ["ESC E is a new line", "a\x1bEb\n", "a\nb\n"],
    ["split multi-byte text passes whole", "héllo wörld ✓\n", "héllo wörld ✓\n"],
    ["a partial last line is kept", "Password: ", "Password: "],
  ];
  for (const [name, raw, text] of table) {
    await t.step(name, () => {
      const result = plainText(raw);
      assert.equal(result.text, text);
      assert.equal(result.lossy, false);
    });
  }
});

Deno.test("cursor moves across lines, screen clears and the alternate screen mark the stream lossy", async (t) => {
  const table: [string, string][] = [
    ["cursor up (multi-line progress)", "a\nb\n\x1b[2Ac\n"],
    ["cursor position", "\x1b[5;10Hx"],
    ["cursor home", "\x1b[Hx"],
    ["clear screen", "\x1b[2J"],
    ["scroll region", "\x1b[1;20r"],
    ["alternate screen", "\x1b[?1049hscreen\x1b[?1049l"],
    ["save and restore cursor", "\x1b7x\x1b8"],
    ["reverse index", "\x1bM"],
    ["8-bit reverse index", "\u008d"],
  ];
  for (const [name, raw] of table) {
    await t.step(name, () => assert.equal(plainText(raw).lossy, true));
  }
  const view = new PlainTextView();
  view.push("\x1b[?1049h");
  assert.equal(view.alternateScreen, true);
  view.push("\x1b[?1049l");
  assert.equal(view.alternateScreen, false);
});

Deno.test("push returns only completed lines; the partial line waits", () => {
  const view = new PlainTextView();
  assert.equal(view.push("Name: "), "");
  assert.equal(view.partialLine, "Name: ");
  assert.equal(view.push("Ada\r\n>>> "), "Name: Ada\n");
  assert.equal(view.partialLine, ">>> ");
});

/** Terminal output built from parts that exercise every parser state. */
const terminalOutput = fc.array(
  fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 8 }),
    fc.constantFrom(
      "\r\n",
      "\r",
      "\n",
      "\b",
      "\t",
      "\x07",
      "\x1b",
      "\x1b[",
      "\x1b[31m",
      "\x1b[0m",
      "\x1b[2K",
      "\x1b[K",
      "\x1b[3G",
      "\x1b[2C",
      "\x1b[1D",
      "\x1b[2P",
      "\x1b[2@",
      "\x1b[5X",
      "\x1b[?1049h",
      "\x1b[?1049l",
      "\x1b[2;5H",
      "\x1b]0;title\x07",
      "\x1b]8;;http://x\x1b\\",
      "\x1b]8;;\x07",
      "\x1bP1$r\x1b\\",
      "\x1b(B",
      "\x1b7",
      "\x1b8",
      "\u009b1m",
      "\u009d0;t\u009c",
      "\x18",
      "\u202e",
      "\u{e0041}",
      "\x00",
      "\x7f",
      "é",
      "✓",
      "\u{1f600}",
    ),
    fc.string({ unit: "binary", maxLength: 6 }),
  ),
  { maxLength: 40 },
).map((parts) => parts.join(""));

Deno.test("property: the view is the same however the output is split into chunks", () => {
  fc.assert(
    fc.property(
      terminalOutput,
      fc.array(fc.nat(), { maxLength: 8 }),
      (raw, cutSeeds) => {
        const whole = plainText(raw);
        const cuts = [...new Set(cutSeeds.map((seed) => seed % (raw.length + 1)))]
          .sort((a, b) => a - b);
        const view = new PlainTextView();
        let text = "";
        let from = 0;
        for (const cut of [...cuts, raw.length]) {
          // Never split a surrogate pair: the view is fed decoded text, whole code points.
          const at = cut > 0 && /[\ud800-\udbff]/.test(raw[cut - 1]) ? cut + 1 : cut;
          if (at <= from) continue;
          text += view.push(raw.slice(from, at));
          from = at;
        }
        text += view.push(raw.slice(from)) + view.partialLine;
        assert.equal(text, whole.text);
        assert.equal(view.lossy, whole.lossy);
      },
    ),
    { seed: SEED, numRuns: 500 },
  );
});

Deno.test("property: no control character, escape or invisible reordering survives", () => {
  fc.assert(
    fc.property(terminalOutput, (raw) => {
      const { text } = plainText(raw);
      assert.doesNotMatch(
        text,
        // deno-lint-ignore no-control-regex
        /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/u,
      );
    }),
    { seed: SEED, numRuns: 500 },
  );
});
