/**
 * Invisible characters that change what a reader sees: bidirectional marks, embeddings,
 * overrides and isolates (they reorder text: "Trojan Source"), and Unicode tag characters
 * (invisible text that a model still reads). As a regular expression class body.
 */
export const INVISIBLE_CLASS = String
  .raw`\u200e\u200f\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}`;

/** C0 controls but tab and newline, DEL and C1 controls, as a class body. */
const CONTROL_CLASS = String.raw`\x00-\x08\x0b-\x1f\x7f-\x9f`;

const UNSAFE = new RegExp(`[${CONTROL_CLASS}${INVISIBLE_CLASS}]`, "gu");
const UNSAFE_ONE = new RegExp(`^[${CONTROL_CLASS}${INVISIBLE_CLASS}]$`, "u");

/** `text` without the characters that could mislead a model or a human terminal. */
export function sanitizeText(text: string): string {
  return text.replace(UNSAFE, "");
}

/** Whether one character may appear in a text view. */
export function isSafeCharacter(char: string): boolean {
  return !UNSAFE_ONE.test(char);
}
