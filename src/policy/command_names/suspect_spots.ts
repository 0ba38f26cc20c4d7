import type { SyntaxNode } from "./bash_parser.ts";
import { endsWord, type Script } from "./words.ts";

/** Nodes that are one simple command: bash ends them at an unescaped line break. */
const SIMPLE_COMMANDS = ["command", "declaration_command", "unset_command", "variable_assignments"];
/** Nodes that are one word to bash: a line continuation with a blank after it ends them. */
const WORD_NODES = [
  "command_name",
  "variable_assignment",
  "concatenation",
  "simple_expansion",
  "expansion",
];

/** A dash word the grammar's scanner may drop: `-` before a blank, or `-abc` before `\\<newline>`. */
const DROPPED_DASH = /^-(?:[ \t\n]|[A-Za-z]*\\\r?\n)/;

/**
 * Checks the spots where tree-sitter-bash and bash may read the text differently (found
 * with differential tests against bash), and returns the first where they do, or null:
 * - a backslash escape outside every token: the grammar took `\ ` or `\<tab>` for a blank,
 *   bash keeps it in a word (`\ rm` runs " rm");
 * - a line continuation the grammar does not join like bash (`r\<newline>m` runs rm), or one
 *   inside a node that bash reads as a single word;
 * - a line break right before a backslash: the grammar may carry the command on across it
 *   (`ls<newline>\rm x` is one command to it, two to bash);
 * - a carriage return outside quotes: a word character to bash, a blank to the grammar;
 * - `$ name` read as an expansion, `#` read as a comment inside a word;
 * - a word of dashes and letters before a blank or a line continuation that no token holds: the
 *   grammar's scanner drops it when an assignment or a redirection follows (`- FOO=1 x` runs
 *   `-` in bash, the grammar sees only `x`).
 */
export function findSuspectSpot(root: SyntaxNode, script: Script): string | null {
  const text = script.text;
  const bracketWord = findBracketWord(root, script);
  if (bracketWord !== null) return bracketWord;
  if (!/[\\\r#]|\$\s|-[\s\\]/.test(text)) return null;
  const at = (i: number) => root.descendantForIndex(i + script.offset, i + script.offset + 1);
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") {
      const spot = backslashSpot(text, i, at);
      if (spot.problem !== null) return spot.problem;
      i += spot.skip;
      continue;
    }
    const problem = charSpot(text, i, at);
    if (problem !== null) return problem;
  }
  return null;
}

/** The node of the script at a text index. */
type NodeAt = (i: number) => SyntaxNode | null;

/** The problem with the backslash at `i`, if any, and how many characters it takes along. */
function backslashSpot(
  text: string,
  i: number,
  at: NodeAt,
): { problem: string | null; skip: number } {
  if (text[i + 1] === "\r" && text[i + 2] === "\n") {
    return {
      problem:
        "a backslash before a carriage return, which the grammar takes for a line continuation",
      skip: 0,
    };
  }
  if (text[i + 1] !== "\n") {
    const problem = isToken(at(i)) ? null : "a backslash between words, which bash keeps in a word";
    return { problem, skip: 1 };
  }
  if (at(i)?.type === "comment") {
    return {
      problem: "a comment ending in a backslash, which the grammar carries on to the next line",
      skip: 0,
    };
  }
  const node = at(i);
  const after = text[i + 2] ?? " ";
  const wordBefore = !/\s/.test(text[i - 1] ?? " ") || text[i - 2] === "\\";
  const joins = wordBefore && !/\s/.test(after);
  const differs = !isToken(node) && (joins || WORD_NODES.includes(node?.type ?? ""));
  return {
    problem: differs ? "a line continuation that bash and the grammar join differently" : null,
    skip: 1,
  };
}

/** The problem with the character at `i` (not a backslash), if any. */
function charSpot(text: string, i: number, at: NodeAt): string | null {
  const c = text[i];
  if (c === "\n" && /^\n[ \t]*\\/.test(text.slice(i, i + 80))) {
    const node = at(i);
    const carried = node !== null &&
      (isToken(node) ? node.type === "word" : SIMPLE_COMMANDS.includes(node.type));
    return carried ? "a line break before a backslash that the grammar carries on" : null;
  }
  if (c === "\r") {
    return isToken(at(i)) ? null : "a carriage return between words, which bash keeps in a word";
  }
  if (c === "$" && /\s/.test(text[i + 1] ?? "")) {
    return at(i)?.parent?.type === "simple_expansion"
      ? "a $ before a blank, which bash reads as a plain character"
      : null;
  }
  if (c === "#" && i > 0 && !endsWord(text, i - 1)) {
    return at(i)?.type === "comment" ? "a # inside a word, which bash keeps in the word" : null;
  }
  if (c === "-" && DROPPED_DASH.test(text.slice(i, i + 80)) && !isToken(at(i))) {
    return "a word starting with - that the grammar drops, which bash runs as a command";
  }
  return null;
}

/** Operators that end a command: inside a `[ ]` test the grammar keeps them, bash does not. */
const COMMAND_ENDS = ["|", "&&", "||", "|&", ";", "&"];
/** Nodes inside which an operator or a line break belongs to other text. */
const OTHER_TEXT = new Set([
  "command_substitution",
  "process_substitution",
  "string",
  "raw_string",
  "arithmetic_expansion",
]);

/**
 * Why bash would not read a `[ ... ]` test as one command, or null: the grammar keeps `|`,
 * `&&`, `;` and line breaks inside it (`[ -n x | ]]`), where bash ends the `[` command and
 * starts another.
 */
export function bracketTestProblem(node: SyntaxNode): string | null {
  const text = node.text;
  if (!text.startsWith("[") || text.startsWith("[[")) return null;
  const inOtherText = (inner: SyntaxNode | null) => {
    for (let at = inner; at !== null && at.id !== node.id; at = at.parent) {
      if (OTHER_TEXT.has(at.type)) return true;
    }
    return false;
  };
  for (const operator of node.descendantsOfType(COMMAND_ENDS)) {
    if (operator !== null && !inOtherText(operator.parent)) {
      return "a [ test holding an operator that ends the command in bash";
    }
  }
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
    const at = node.startIndex + i;
    const inner = node.descendantForIndex(at, at + 1);
    if (!inOtherText(inner) && text[i - 1] !== "\\") {
      return "a [ test over a line break, which ends the command in bash";
    }
  }
  return null;
}

/** Runs of `{`, `}`, `[`, `]` apart by blanks, which the grammar may join into one word. */
const BRACKET_RUN = /[{}[\]](?:[ \t]|\\\r?\n)+(?=[{}[\]])/g;

/**
 * A word of brackets and braces the grammar joined across a blank (`} [[`, `} } {`): to
 * bash these are separate words, one of which may be a command.
 */
function findBracketWord(root: SyntaxNode, script: Script): string | null {
  for (const match of script.text.matchAll(BRACKET_RUN)) {
    const at = match.index + 1 + script.offset;
    if (root.descendantForIndex(at, at + 1)?.type === "word") {
      return "a word the grammar joins across a blank, which bash splits there";
    }
  }
  return null;
}

/**
 * Why bash would read the `[`, `[[`, `!` or `{` that opens a test, negation or group as part of
 * a word, or null: without a blank after it, it is no operator to bash.
 */
export function gluedOpener(node: SyntaxNode, script: Script): string | null {
  switch (node.type) {
    case "test_command": {
      // `[[x` is a word to bash: the bracket opens a test only before a blank.
      const start = node.startIndex - script.offset;
      const open = script.text.startsWith("[[", start) ? 2 : 1;
      if (script.text[start] === "[" && !endsWord(script.text, start + open)) {
        return "a [ not followed by a blank, which bash reads as part of a command name";
      }
      return null;
    }
    case "negated_command":
      // `!x` without a blank is a word to bash, not a negation.
      if (!endsWord(script.text, node.startIndex - script.offset + 1)) {
        return "a ! not followed by a blank, which bash reads as part of a command name";
      }
      return null;
    case "compound_statement":
      // `{}` or `{ls; }`: without a blank after it, `{` is a word to bash, not a group.
      if (!endsWord(script.text, node.startIndex - script.offset + 1)) {
        return "a { not followed by a blank, which bash reads as part of a command name";
      }
      return null;
  }
  return null;
}

/** Whether a node is a token (a leaf other than an empty program). */
function isToken(node: SyntaxNode | null): boolean {
  return node !== null && node.childCount === 0 && node.type !== "program";
}
