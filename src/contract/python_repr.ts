// Python's str.isprintable() is false for categories C* and Z* except the ASCII space.
const NON_PRINTABLE = /^[\p{C}\p{Z}]$/u;

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/**
 * Python's `repr()` of a string, the contract's quoting: single quotes, or double quotes when
 * the text contains `'` and no `"`; backslashes, the quote, `\n`, `\r`, `\t` and non-printable
 * characters escaped.
 */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let body = "";
  for (const char of text) {
    if (char === quote) body += `\\${char}`;
    else if (Object.hasOwn(NAMED_ESCAPES, char)) body += NAMED_ESCAPES[char];
    else if (char !== " " && NON_PRINTABLE.test(char)) body += escapeCodePoint(char);
    else body += char;
  }
  return `${quote}${body}${quote}`;
}

function escapeCodePoint(char: string): string {
  const codePoint = char.codePointAt(0) ?? 0;
  const hex = codePoint.toString(16);
  if (codePoint <= 0xff) return `\\x${hex.padStart(2, "0")}`;
  if (codePoint <= 0xffff) return `\\u${hex.padStart(4, "0")}`;
  return `\\U${hex.padStart(8, "0")}`;
}
