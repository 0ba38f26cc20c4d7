/**
 * Throws a RangeError naming `action` and `name` unless `value` is an integer (or Infinity)
 * at least `minimum`.
 */
export function checkCount(value: number, name: string, minimum: number, action: string): void {
  if (value >= minimum && (Number.isInteger(value) || value === Infinity)) return;
  const range = minimum === -Infinity ? "an integer" : `an integer >= ${minimum}`;
  throw new RangeError(`Cannot ${action} as ${name} must be ${range}: received ${value}`);
}
