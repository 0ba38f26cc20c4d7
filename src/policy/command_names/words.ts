import type { SyntaxNode } from "./bash_parser.ts";

/** A word's value when it is static, or why it is not. */
export type Word =
  | { value: string; pattern: boolean; continued: boolean }
  | { dynamic: string; splits: boolean };

/** An argument: a syntax node of the script being read, or a word made by a wrapper. */
export type Arg = { node: SyntaxNode; script: Script } | Word;

/** The text of the tree a node belongs to, to look at characters between tokens. */
export interface Script {
  text: string;
  offset: number;
}

/** A static word with no pattern and no line continuation. */
export function staticWord(value: string): Word {
  return { value, pattern: false, continued: false };
}

/** An argument's static value, or why it has none; checks how bash would end the word. */
export function resolve(arg: Arg): Word {
  if (!("node" in arg)) return arg;
  const { node, script } = arg;
  // The grammar splits some words bash reads as one (`rm\&x`, ``e`echo`m``): a word followed
  // directly by another one, with no blank or operator between them.
  const end = node.endIndex - script.offset;
  if (!endsWord(script.text, end)) {
    const next = node.nextSibling;
    if (next !== null && next.startIndex - script.offset === end) {
      return { dynamic: "text the grammar split off that bash keeps in the word", splits: true };
    }
  }
  return resolveNode(node);
}

/** Whether the character at `index` (or the end of the text) ends a word in bash. */
export function endsWord(text: string, index: number): boolean {
  return index >= text.length || WORD_BREAKS.includes(text[index]);
}

/** Characters that end an unquoted word in bash. */
const WORD_BREAKS = " \t\n\r;&|()<>";

/** Why each kind of expansion node makes a word dynamic, as said in messages. */
export const DYNAMIC_REASONS: Readonly<Record<string, string>> = {
  simple_expansion: "a parameter expansion",
  expansion: "a parameter expansion",
  command_substitution: "a command substitution",
  arithmetic_expansion: "an arithmetic expansion",
  process_substitution: "a process substitution",
  ansi_c_string: "ANSI-C quoting ($'...')",
  translated_string: 'locale quoting ($"...")',
};

/** A word node's static value, or why it has none. */
export function resolveNode(node: SyntaxNode): Word {
  switch (node.type) {
    case "command_name": {
      const inner = node.firstChild;
      return inner === null ? staticWord("") : resolveNode(inner);
    }
    case "word":
      return unescapeWord(node.text);
    case "number":
      return staticWord(node.text);
    case "raw_string":
      return staticWord(node.text.slice(1, -1));
    case "string":
      return resolveString(node);
    case "concatenation":
      return resolveConcatenation(node);
    case "brace_expression":
      return { value: node.text, pattern: true, continued: false };
    default: {
      const reason = DYNAMIC_REASONS[node.type] ?? `an unsupported construct (${node.type})`;
      return { dynamic: reason, splits: node.type !== "ansi_c_string" };
    }
  }
}

/** A word the grammar split into parts (`a"b"$c`): static when every part is. */
function resolveConcatenation(node: SyntaxNode): Word {
  let value = "";
  let pattern = false;
  let continued = false;
  // The grammar splits `{a,b}` and `[ab]` into several words, so patterns are looked for
  // in the unquoted text of the whole word (quoted parts stand in as a neutral letter).
  let shape = "";
  let length = 0;
  for (const child of node.children) {
    if (child === null) continue;
    const part = resolveNode(child);
    if ("dynamic" in part) return part;
    const text = child.text;
    length += text.length;
    shape += child.type === "word" ? text : "_";
    value += part.value;
    pattern ||= part.pattern;
    continued ||= part.continued;
  }
  // Parts that do not touch: the grammar joined words across a blank.
  if (length !== node.text.length) {
    return { dynamic: "a blank the grammar kept inside a word", splits: true };
  }
  return { value, pattern: pattern || hasPattern(shape), continued };
}

function resolveString(node: SyntaxNode): Word {
  for (const child of node.namedChildren) {
    if (child === null || child.type === "string_content") continue;
    const reason = DYNAMIC_REASONS[child.type] ?? `an unsupported construct (${child.type})`;
    // "$@" and "${a[@]}" expand to any number of words even inside quotes.
    return { dynamic: reason, splits: /\$\{?[@!]|\[@\]/.test(child.text) };
  }
  const text = node.text.slice(1, -1);
  let value = "";
  let continued = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length) {
      const next = text[i + 1];
      if (next === "\n") {
        continued = true;
        i++;
        continue;
      }
      if (next === "$" || next === "`" || next === '"' || next === "\\") {
        value += next;
        i++;
        continue;
      }
    }
    value += c;
  }
  return { value, pattern: false, continued };
}

function unescapeWord(text: string): Word {
  if (!/[\\*?[\]{}\s]/.test(text)) return staticWord(text);
  // Unquoted blanks end a word in bash; one inside a grammar word means the two disagree.
  if (/(?<!\\)\s/.test(text)) {
    return { dynamic: "a blank or line break the grammar kept inside a word", splits: true };
  }
  let value = "";
  let continued = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== "\\") {
      value += c;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) break;
    i++;
    if (next === "\n") continued = true;
    else value += next;
  }
  return { value, pattern: hasPattern(text), continued };
}

/**
 * Whether unquoted word text would be expanded: a glob (`*`, `?`, a closed `[...]`) or brace
 * expansion (`{a,b}`, `{a..b}`). Backslash-escaped characters are literal.
 */
function hasPattern(text: string): boolean {
  let brace: "none" | "open" | "list" = "none";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "*" || c === "?") return true;
    else if (c === "[" && text.includes("]", i + 1)) return true;
    else if (c === "{") brace = "open";
    else if (brace === "open" && (c === "," || (c === "." && text[i + 1] === "."))) brace = "list";
    else if (c === "}" && brace === "list") return true;
  }
  return false;
}

/** Why a word cannot be used where a command name (or a word before one) is expected. */
export function wordProblem(word: Word, what: string): string | null {
  if ("dynamic" in word) return `${what} contains ${word.dynamic}`;
  if (word.pattern) return `${what} contains a glob or brace pattern`;
  if (word.continued) return `${what} contains a line continuation`;
  return null;
}
