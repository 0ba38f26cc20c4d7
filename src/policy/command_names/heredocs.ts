import type { SyntaxNode } from "./bash_parser.ts";
import type { Collector } from "./command_reader.ts";
import type { RunContext } from "./run_context.ts";
import type { Script } from "./words.ts";

/**
 * Reads a here-document: the grammar and the shell must end it at the same line, and in an
 * unquoted body the shell runs backtick substitutions, which the grammar leaves as text.
 */
export function readHeredoc(collector: Collector, node: SyntaxNode, context: RunContext): void {
  let start: SyntaxNode | null = null;
  let body: SyntaxNode | null = null;
  let end: SyntaxNode | null = null;
  let stripTabs = false;
  for (const child of node.children) {
    if (child === null) continue;
    if (child.type === "<<-") stripTabs = true;
    else if (child.type === "heredoc_start") start = child;
    else if (child.type === "heredoc_body" || child.type === "simple_heredoc_body") body = child;
    else if (child.type === "heredoc_end") end = child;
  }
  if (start === null) return;
  const delimiter = shellDelimiter(start.text);
  if (delimiter === null) {
    collector.fail("a here-document delimiter with expansions, which the shell reads literally");
    return;
  }
  if (!endsAlike(context.script, { start, end, delimiter, stripTabs })) {
    collector.fail("a here-document delimiter that the grammar and the shell end differently");
    return;
  }
  if (body !== null && !/['"\\]/.test(start.text)) readBodyBackticks(collector, body, context);
}

/** The delimiter the shell looks for: the word with its quotes removed; null if it expands. */
function shellDelimiter(word: string): string | null {
  let out = "";
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === "'") {
      const close = word.indexOf("'", i + 1);
      if (close < 0) return null;
      out += word.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < word.length && word[j] !== '"'; j++) {
        if (word[j] === "\\" && /["\\$`]/.test(word[j + 1] ?? "")) j++;
        out += word[j];
      }
      i = j;
    } else if (c === "\\") {
      out += word[i + 1] ?? "";
      i++;
    } else if (c === "$" || c === "`") return null;
    else out += c;
  }
  return out;
}

/**
 * Whether the grammar ends the body where the shell does: at the first line, after the line
 * of the `<<`, that is exactly the delimiter (tabs stripped for `<<-`). The grammar also takes
 * ` EOF` for the end, and carries a line ending in a backslash on into the delimiter line.
 */
function endsAlike(
  script: Script,
  heredoc: { start: SyntaxNode; end: SyntaxNode | null; delimiter: string; stripTabs: boolean },
): boolean {
  const { start, end, delimiter, stripTabs } = heredoc;
  const text = script.text;
  const from = text.indexOf("\n", start.endIndex - script.offset);
  const to = end === null ? text.length : end.startIndex - script.offset;
  if (from < 0) return end === null;
  const line = (part: string) => stripTabs ? part.replace(/^\t+/, "") : part;
  // The shell's end line: from a line start, the delimiter and nothing else.
  if (end !== null) {
    // The end token may swallow the lines after it (`<<EO''F`).
    if (line(end.text.replace(/\r?\n$/, "")) !== delimiter) return false;
    const lineStart = text.lastIndexOf("\n", to - 1) + 1;
    const lineEnd = text.indexOf("\n", to);
    if (line(text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd)) !== delimiter) return false;
  }
  const lines = text.slice(from + 1, Math.max(from + 1, text.lastIndexOf("\n", to - 1)));
  return !lines.split("\n").some((part) => line(part) === delimiter);
}

/** Backtick substitutions in an unquoted body: each is read as the script the shell runs. */
function readBodyBackticks(collector: Collector, body: SyntaxNode, context: RunContext): void {
  const text = body.text;
  if (!text.includes("`")) return;
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") {
      i++;
      continue;
    }
    if (text[i] !== "`") continue;
    if (open < 0) {
      open = i;
      continue;
    }
    const inner = unescapeBackticks(text.slice(open + 1, i));
    collector.script(
      inner,
      "a backtick substitution in a here-document",
      context.nesting,
      context.dialect,
    );
    open = -1;
  }
  if (open >= 0) collector.fail("a here-document with an unclosed backtick substitution");
}

/**
 * Reads a backtick substitution whose text has escapes: the shell removes `\` before `` ` ``,
 * `$` and `\` and runs what is left, so `` `echo \`rm x\`` `` runs `rm x`.
 */
export function readBacktick(collector: Collector, node: SyntaxNode, context: RunContext): void {
  const text = node.text;
  if (!text.startsWith("`") || !/\\[`$\\]/.test(text)) return;
  const inner = unescapeBackticks(text.slice(1, text.endsWith("`") ? -1 : undefined));
  collector.script(inner, "a backtick substitution", context.nesting, context.dialect);
}

/** The text the shell runs for a backtick substitution. */
function unescapeBackticks(text: string): string {
  return text.replace(/\\([`$\\])/g, "$1");
}
