/** Terminal modes that change what a key sends (the screen view tracks them). */
export interface KeyModes {
  /** DECCKM: cursor keys send `ESC O A` instead of `ESC [ A` (vim, less, readline set it). */
  applicationCursor: boolean;
}

interface Modifiers {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

/** Keys that send a plain byte. */
const PLAIN: Record<string, string> = {
  Enter: "\r",
  Tab: "\t",
  Esc: "\x1b",
  Space: " ",
  Backspace: "\x7f",
};

/** Cursor keys: final byte of `CSI x` / `SS3 x`. */
const CURSOR: Record<string, string> = {
  Up: "A",
  Down: "B",
  Right: "C",
  Left: "D",
  Home: "H",
  End: "F",
};

/** Editing and function keys sent as `CSI n ~`. */
const TILDE: Record<string, number> = {
  Insert: 2,
  Delete: 3,
  PageUp: 5,
  PageDown: 6,
  F5: 15,
  F6: 17,
  F7: 18,
  F8: 19,
  F9: 20,
  F10: 21,
  F11: 23,
  F12: 24,
};

/** F1..F4 are `SS3 P..S` (xterm). */
const SS3_FUNCTION: Record<string, string> = { F1: "P", F2: "Q", F3: "R", F4: "S" };

/** Other spellings agents know from tmux and elsewhere. */
const ALIASES: Record<string, string> = {
  Return: "Enter",
  Escape: "Esc",
  BSpace: "Backspace",
  Del: "Delete",
  DC: "Delete",
  IC: "Insert",
  Ins: "Insert",
  PgUp: "PageUp",
  PPage: "PageUp",
  PgDn: "PageDown",
  NPage: "PageDown",
  BTab: "S-Tab",
};

/** Every key name in its canonical spelling (modifiers and single characters aside). */
export const KEY_NAMES: readonly string[] = [
  ...Object.keys(PLAIN),
  ...Object.keys(CURSOR),
  ...Object.keys(TILDE).filter((name) => !name.startsWith("F")),
  ...Array.from({ length: 12 }, (_, index) => `F${index + 1}`),
];

const CANONICAL = new Map<string, string>(
  [...KEY_NAMES, ...Object.keys(ALIASES)].map((name) => [name.toLowerCase(), name]),
);

const HELP =
  "keys are Enter, Tab, Esc, Space, Backspace, Delete, Insert, Up, Down, Left, Right, Home, End, PageUp, PageDown, F1..F12, C-a..C-z, M-<key>, S-<key> (also Ctrl-, Alt-, Shift-) or any single character";

/**
 * The bytes a terminal sends for a named key: `Enter`, `C-c`, `M-x`, `S-Tab`, `C-Up`, `F5`,
 * or one character. Throws with the nearest valid name for anything else.
 */
export function encodeKey(name: string, modes: KeyModes = { applicationCursor: false }): string {
  const { modifiers, base } = splitModifiers(name);
  const alias = ALIASES[CANONICAL.get(base.toLowerCase()) ?? ""];
  if (alias !== undefined) {
    const prefix = name.slice(0, name.length - base.length);
    return encodeKey(`${prefix}${alias}`, modes);
  }
  const encoded = [...base].length === 1
    ? encodeCharacter(base, modifiers)
    : encodeNamed(CANONICAL.get(base.toLowerCase()), modifiers, modes);
  if (encoded === null) throw new Error(unknownKey(name, modifiers, base));
  return encoded;
}

/** The bytes of several keys, in order. */
export function encodeKeys(names: readonly string[], modes?: KeyModes): string {
  return names.map((name) => encodeKey(name, modes)).join("");
}

/** `C-`, `M-` (or `A-`), `S-`, also spelled `Ctrl-`, `Alt-`, `Meta-`, `Shift-` or with `+`. */
const MODIFIER = /^(C|Ctrl|Control|M|A|Alt|Meta|S|Shift)[-+](?=.)/i;

function splitModifiers(name: string): { modifiers: Modifiers; base: string } {
  const modifiers = { ctrl: false, alt: false, shift: false };
  let rest = name;
  for (let match = MODIFIER.exec(rest); match !== null; match = MODIFIER.exec(rest)) {
    const letter = match[1][0].toUpperCase();
    if (letter === "C") modifiers.ctrl = true;
    else if (letter === "S") modifiers.shift = true;
    else modifiers.alt = true;
    rest = rest.slice(match[0].length);
  }
  return { modifiers, base: rest };
}

function encodeCharacter(char: string, { ctrl, alt, shift }: Modifiers): string | null {
  let key = shift ? char.toUpperCase() : char;
  if (ctrl) {
    const control = controlCode(key);
    if (control === null) return null;
    key = control;
  }
  return alt ? `\x1b${key}` : key;
}

/** C-a..C-z, C-@ and C-Space (NUL), C-[ \ ] ^ _ and C-? (DEL). */
function controlCode(char: string): string | null {
  if (/^[a-z]$/i.test(char)) return String.fromCharCode(char.toUpperCase().charCodeAt(0) - 64);
  if (char === "@" || char === " ") return "\x00";
  if (char === "?") return "\x7f";
  const index = "[\\]^_".indexOf(char);
  return index === -1 ? null : String.fromCharCode(0x1b + index);
}

function encodeNamed(
  name: string | undefined,
  modifiers: Modifiers,
  modes: KeyModes,
): string | null {
  if (name === undefined) return null;
  const parameter = 1 + (modifiers.shift ? 1 : 0) + (modifiers.alt ? 2 : 0) +
    (modifiers.ctrl ? 4 : 0);
  if (name in CURSOR) {
    if (parameter > 1) return `\x1b[1;${parameter}${CURSOR[name]}`;
    return `${modes.applicationCursor ? "\x1bO" : "\x1b["}${CURSOR[name]}`;
  }
  if (name in SS3_FUNCTION) {
    return parameter > 1
      ? `\x1b[1;${parameter}${SS3_FUNCTION[name]}`
      : `\x1bO${SS3_FUNCTION[name]}`;
  }
  if (name in TILDE) {
    return parameter > 1 ? `\x1b[${TILDE[name]};${parameter}~` : `\x1b[${TILDE[name]}~`;
  }
  return encodePlain(name, modifiers);
}

/** Enter, Tab, Esc, Space, Backspace: S-Tab, C-Space, C-Backspace and M- prefixes. */
function encodePlain(name: string, { ctrl, alt, shift }: Modifiers): string | null {
  let key: string | null = PLAIN[name];
  if (shift) key = name === "Tab" ? "\x1b[Z" : null;
  if (ctrl && key !== null) {
    key = name === "Space" ? "\x00" : name === "Backspace" ? "\x08" : null;
  }
  if (key === null) return null;
  return alt ? `\x1b${key}` : key;
}

function unknownKey(name: string, modifiers: Modifiers, base: string): string {
  if (base === "") return `Cannot send an empty key name; ${HELP}`;
  const prefix = name.slice(0, name.length - base.length);
  const known = [...base].length === 1 || CANONICAL.has(base.toLowerCase());
  if (known) {
    const held = [modifiers.ctrl && "C", modifiers.alt && "M", modifiers.shift && "S"]
      .filter(Boolean).join("-");
    return `Cannot send key ${JSON.stringify(name)}: ${base} has no ${held}- form; ${HELP}`;
  }
  const nearest = nearestName(base);
  return `Cannot send key ${JSON.stringify(name)}: no such key; did you mean ${
    JSON.stringify(`${prefix}${nearest}`)
  }? ${HELP}`;
}

function nearestName(base: string): string {
  const wanted = base.toLowerCase();
  let best = KEY_NAMES[0];
  let bestDistance = Infinity;
  for (const [lower, name] of CANONICAL) {
    const distance = editDistance(wanted, lower);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}
