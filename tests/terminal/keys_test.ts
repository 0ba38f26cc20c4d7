import assert from "node:assert/strict";
import { encodeKey, encodeKeys, KEY_NAMES } from "../../src/terminal/keys.ts";

Deno.test("named keys send what xterm sends", async (t) => {
  const table: [string, string][] = [
    ["Enter", "\r"],
    ["Tab", "\t"],
    ["Esc", "\x1b"],
    ["Space", " "],
    ["Backspace", "\x7f"],
    ["Delete", "\x1b[3~"],
    ["Insert", "\x1b[2~"],
    ["Up", "\x1b[A"],
    ["Down", "\x1b[B"],
    ["Right", "\x1b[C"],
    ["Left", "\x1b[D"],
    ["Home", "\x1b[H"],
    ["End", "\x1b[F"],
    ["PageUp", "\x1b[5~"],
    ["PageDown", "\x1b[6~"],
    ["F1", "\x1bOP"],
    ["F4", "\x1bOS"],
    ["F5", "\x1b[15~"],
    ["F10", "\x1b[21~"],
    ["F12", "\x1b[24~"],
    ["C-a", "\x01"],
    ["C-c", "\x03"],
    ["C-d", "\x04"],
    ["C-z", "\x1a"],
    ["C-C", "\x03"],
    ["C-@", "\x00"],
    ["C-Space", "\x00"],
    ["C-[", "\x1b"],
    ["C-\\", "\x1c"],
    ["C-]", "\x1d"],
    ["C-_", "\x1f"],
    ["C-?", "\x7f"],
    ["M-x", "\x1bx"],
    ["M-X", "\x1bX"],
    ["A-b", "\x1bb"],
    ["M-Enter", "\x1b\r"],
    ["C-M-a", "\x1b\x01"],
    ["S-Tab", "\x1b[Z"],
    ["S-a", "A"],
    ["C-Up", "\x1b[1;5A"],
    ["S-Right", "\x1b[1;2C"],
    ["M-Left", "\x1b[1;3D"],
    ["C-S-Home", "\x1b[1;6H"],
    ["C-Delete", "\x1b[3;5~"],
    ["S-F1", "\x1b[1;2P"],
    ["C-F5", "\x1b[15;5~"],
    ["C-Backspace", "\x08"],
    ["q", "q"],
    ["é", "é"],
    ["-", "-"],
    // tmux and common aliases, any case.
    ["Return", "\r"],
    ["Escape", "\x1b"],
    ["BSpace", "\x7f"],
    ["PgUp", "\x1b[5~"],
    ["NPage", "\x1b[6~"],
    ["DC", "\x1b[3~"],
    ["BTab", "\x1b[Z"],
    ["enter", "\r"],
    ["c-c", "\x03"],
    ["pageup", "\x1b[5~"],
    ["Ctrl-C", "\x03"],
    ["ctrl+d", "\x04"],
    ["Alt-f", "\x1bf"],
    ["Meta-b", "\x1bb"],
    ["Shift-Tab", "\x1b[Z"],
    ["Ctrl+Shift+Up", "\x1b[1;6A"],
  ];
  for (const [name, bytes] of table) {
    await t.step(name, () => assert.equal(encodeKey(name), bytes));
  }
});

Deno.test("cursor keys follow application cursor mode (DECCKM)", () => {
  const modes = { applicationCursor: true };
  assert.equal(encodeKey("Up", modes), "\x1bOA");
  assert.equal(encodeKey("Home", modes), "\x1bOH");
  assert.equal(encodeKey("C-Up", modes), "\x1b[1;5A", "modified keys keep the CSI form");
  assert.equal(encodeKey("PageUp", modes), "\x1b[5~");
});

Deno.test("every listed key name encodes", () => {
  for (const name of KEY_NAMES) assert.ok(encodeKey(name).length > 0, name);
  assert.equal(KEY_NAMES.length, 27);
});

Deno.test("keys in sequence", () => {
  assert.equal(encodeKeys(["C-c", "Up", "Enter"]), "\x03\x1b[A\r");
  assert.equal(encodeKeys([]), "");
});

Deno.test("an unknown key names the nearest valid one and what is valid", async (t) => {
  const table: [string, string][] = [
    ["Entr", '"Enter"'],
    ["Escpe", '"Escape"'],
    ["PageUpp", '"PageUp"'],
    ["F13", '"F1"'],
    ["C-Uo", '"C-Up"'],
    ["Bakspace", '"Backspace"'],
  ];
  for (const [name, nearest] of table) {
    await t.step(name, () => {
      assert.throws(() => encodeKey(name), (error: Error) => {
        assert.equal(
          error.message,
          `Cannot send key ${
            JSON.stringify(name)
          }: no such key; did you mean ${nearest}? keys are Enter, Tab, Esc, Space, Backspace, Delete, Insert, Up, Down, Left, Right, Home, End, PageUp, PageDown, F1..F12, C-a..C-z, M-<key>, S-<key> (also Ctrl-, Alt-, Shift-) or any single character`,
        );
        return true;
      });
    });
  }
});

Deno.test("a modifier a key has no form for is refused with why", () => {
  assert.throws(
    () => encodeKey("C-1"),
    /^Error: Cannot send key "C-1": 1 has no C- form; keys are/,
  );
  assert.throws(() => encodeKey("S-Enter"), /"S-Enter": Enter has no S- form/);
  assert.throws(() => encodeKey(""), /^Error: Cannot send an empty key name; keys are/);
});
