/**
 * Python `int(text)` syntax for base 10: surrounding whitespace, one leading `+` or `-`, ASCII
 * digits, and single `_` separators between digits.
 */
const PYTHON_INT = /^[+-]?[0-9]+(?:_[0-9]+)*$/;

/**
 * Parses `text` the way Python's `int(text)` does, or returns `undefined` when Python would raise
 * `ValueError`. `"5.0"`, `"1e3"` and `"0x10"` are not integers. Unicode digits, which Python
 * also accepts, are not: nobody writes `٣` in a byte limit on purpose.
 */
export function parseInteger(text: string): number | undefined {
  const trimmed = text.trim();
  if (!PYTHON_INT.test(trimmed)) return undefined;
  const value = Number(trimmed.replaceAll("_", ""));
  return Object.is(value, -0) ? 0 : value;
}
