/** Ends every reason that says a command name cannot be determined statically. */
export const UNKNOWN_SUFFIX =
  "; the command-name policy rejects it while a blacklist or whitelist is configured";

/** Longest name quoted whole in a message; longer ones are cut so reasons stay readable. */
const MAX_MESSAGE_NAME = 80;

/** Quotes a name for a message, with control characters escaped and long names shortened. */
export function quoteName(name: string): string {
  const printable = name.replace(
    // deno-lint-ignore no-control-regex -- control characters are exactly what is escaped
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  const short = printable.length > MAX_MESSAGE_NAME
    ? `${printable.slice(0, MAX_MESSAGE_NAME - 3)}...`
    : printable;
  return `'${short}'`;
}
