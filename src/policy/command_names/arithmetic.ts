/**
 * Arithmetic under bash evaluates the values of the variables it names as expressions, and an
 * array subscript inside such a value runs its command substitutions:
 * `x='a[$(rm y)]'; echo $((x))` runs `rm y`. So while a list is set, a script read as bash may
 * use in arithmetic (and in subscripts, `[[ -eq ]]`, substring offsets, `let`) only numbers and
 * variables the script itself set to numbers before it uses them.
 */

/** bash's own integer variables, which no caller can set to an expression. */
const INTEGER_SPECIALS: ReadonlySet<string> = new Set([
  "RANDOM",
  "SRANDOM",
  "LINENO",
  "SECONDS",
  "BASHPID",
  "PPID",
  "UID",
  "EUID",
  "EPOCHSECONDS",
  "OPTIND",
]);

/** Number literals of bash arithmetic: hexadecimal, `base#digits`, octal and decimal. */
const NUMBER = /\b0[xX][0-9A-Fa-f]+\b|\b\d+#[0-9A-Za-z@_]+|\b\d+\b/g;
/** An assignment value that is a number literal (or empty, which is 0). */
const NUMERIC_VALUE = /^(?:[-+]?(?:0[xX][0-9A-Fa-f]+|\d+#[0-9A-Za-z@_]+|\d+))?$/;

interface Use {
  name: string;
  at: number;
}

/** Tracks, for one script, which variables hold numbers and what arithmetic uses. */
export class ArithmeticTracker {
  #writes = new Map<string, { numeric: boolean; first: number }>();
  #uses: Use[] = [];
  #subscripts: { name: string; index: string; at: number }[] = [];
  #associative = new Set<string>();
  #problem: string | null = null;
  #callerNames: ReadonlySet<string>;

  /** `callerNames`: variables the caller sets (the `env` argument), never numbers to trust. */
  constructor(callerNames: ReadonlySet<string>) {
    this.#callerNames = callerNames;
  }

  /** Notes a write of `name` at text offset `at`: `value` is its static text, or null. */
  write(name: string, value: string | null, at: number): void {
    const numeric = value !== null && NUMERIC_VALUE.test(value.trim());
    const known = this.#writes.get(name);
    if (known === undefined) this.#writes.set(name, { numeric, first: at });
    else known.numeric &&= numeric;
  }

  /** Notes a write by arithmetic itself (`((i = 0))`, `let i++`): its result is a number. */
  arithmeticWrite(name: string, at: number): void {
    this.write(name, "0", at);
  }

  /** Notes arithmetic text evaluated at offset `at`; `what` names the construct in messages. */
  use(text: string, at: number, what: string): void {
    if (this.#problem !== null) return;
    if (/\$\(|`/.test(text)) {
      this.#problem = `under bash, ${what} takes text from a command substitution`;
      return;
    }
    if (/\$\{?[0-9@*-]/.test(text)) {
      this.#problem = `under bash, ${what} uses parameters the policy cannot see`;
      return;
    }
    const bare = text.replace(NUMBER, " ");
    for (const match of bare.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
      this.#uses.push({ name: match[0], at });
    }
    for (const match of text.matchAll(/([A-Za-z_]\w*)\s*(?:\+\+|--|[-+*/%&|^]?=(?!=)|<<=|>>=)/g)) {
      this.arithmeticWrite(match[1], at);
    }
  }

  /**
   * Notes the subscript `index` of array `name`: arithmetic unless the script declares `name`
   * associative (`declare -A`), whose keys are plain strings.
   */
  subscript(name: string, index: string, at: number): void {
    if (index !== "@" && index !== "*") this.#subscripts.push({ name, index, at });
  }

  /** Notes `declare -A name`. */
  associative(name: string): void {
    this.#associative.add(name);
  }

  /** Notes a variable name given as an argument (`read NAME`, `printf -v NAME`, `-v NAME`). */
  nameArgument(text: string, at: number, what: string): void {
    const match = /^([A-Za-z_]\w*)(?:\[(.*)\])?$/s.exec(text);
    if (match === null) this.fail(`under bash, ${what} names a variable the policy cannot read`);
    else if (match[2] !== undefined) this.subscript(match[1], match[2], at);
  }

  /** Records a problem found outside arithmetic text (a dynamic `let` argument...). */
  fail(problem: string): void {
    this.#problem ??= problem;
  }

  /** Why the script's arithmetic may run hidden commands, or null. */
  problem(): string | null {
    for (const { name, index, at } of this.#subscripts) {
      if (!this.#associative.has(name)) this.use(index, at, "an array subscript");
    }
    this.#subscripts = [];
    if (this.#problem !== null) return this.#problem;
    for (const { name, at } of this.#uses) {
      if (INTEGER_SPECIALS.has(name)) continue;
      const write = this.#writes.get(name);
      if (
        write === undefined || !write.numeric || write.first > at || this.#callerNames.has(name)
      ) {
        return `under bash, arithmetic on ${name}, whose value the policy cannot see, can run commands hidden in an array subscript`;
      }
    }
    return null;
  }
}
