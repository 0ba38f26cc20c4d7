import type { SyntaxNode } from "./bash_parser.ts";
import { commandArgs, strayWords } from "./command_args.ts";
import type { Collector } from "./command_reader.ts";
import { hasReader } from "./commands/reader_table.ts";
import { basename } from "./name_lists.ts";
import { BASH_RESERVED, RESERVED_BEFORE_COMMAND, RESERVED_OTHER } from "./reserved_words.ts";
import type { RunContext } from "./run_context.ts";
import { endsWord, type Script } from "./words.ts";

/**
 * Readers of command names and redirections for the collector's walk: the command a name
 * starts, the words the grammar hangs on a redirection, and the spots where the grammar makes
 * one word or one command of what bash splits.
 */

/** A command name needing no unquoting and no pattern check: the common, fast case. */
const PLAIN_NAME = /^[\w./+@%:,=-]+$/;

/** Whether a node is an unquoted word holding a blank: the grammar and bash split it apart. */
function blankInWord(node: SyntaxNode | null): boolean {
  return node !== null && node.type === "word" && /(?<!\\)\s/.test(node.text);
}

/**
 * Whether the grammar made one word of a concatenation bash splits: its parts do not touch
 * (`- \` \` <newline> !`).
 */
export function splitWord(node: SyntaxNode): boolean {
  if (!/\s/.test(node.text)) return false;
  let length = 0;
  for (const child of node.children) length += child?.text.length ?? 0;
  return length !== node.text.length;
}

/** Whether an unescaped line break stands between two children of a node. */
function carriedOverLineBreak(node: SyntaxNode, script: Script): boolean {
  if (!node.text.includes("\n")) return false;
  let end = -1;
  for (const child of node.children) {
    if (child === null) continue;
    const start = child.startIndex - script.offset;
    if (end >= 0 && /(?<!\\)\n/.test(script.text.slice(end, start))) return true;
    end = child.endIndex - script.offset;
  }
  return false;
}

export function readRedirect(collector: Collector, node: SyntaxNode, context: RunContext): void {
  // Only digits (or `{name}`) make a descriptor to bash: `-x2>&1` is a word and `>&1`.
  const first = node.firstChild;
  if (context.dialect === "posix" && /^&>>?$/.test(first?.type ?? "")) {
    // dash reads `a &>f b` as `a &` and `>f b`: the words after the target are a command.
    const words = strayWords(node).map((word) => ({ node: word, script: context.script }));
    if (words.length > 0) collector.run({ args: words, index: 0, keyword: false, context });
  } else if (first?.type === "file_descriptor" && !/^(\d+|\{\w+\})$/.test(first.text)) {
    collector.fail("a word the grammar reads as a file descriptor, which bash runs as a command");
  } else if (node.type === "file_redirect" && blankInWord(node.lastChild)) {
    collector.fail(
      "a redirection target the grammar reads with blanks in it, which bash ends there",
    );
  } else if (strayWords(node).length > 0) {
    if (carriedOverLineBreak(node, context.script)) {
      collector.fail("a redirection the grammar carries over a line break, where bash ends it");
    } else readStrayWords(collector, node, context);
  }
}

/** A command name: recorded at once when plain, else its command is read in full. */
export function readCommandName(
  collector: Collector,
  node: SyntaxNode,
  context: RunContext,
): void {
  const text = node.text;
  const script = context.script;
  // `a=rm{$] $a`: the grammar ends a word early and starts a command name inside it.
  const before = script.text[node.startIndex - script.offset - 1];
  if (
    before !== undefined && before !== "`" &&
    !endsWord(script.text, node.startIndex - script.offset - 1)
  ) {
    collector.fail(
      "a command name the grammar splits off the word before it, which bash keeps whole",
    );
    return;
  }
  if (PLAIN_NAME.test(text)) {
    if (
      endsWord(script.text, node.startIndex + text.length - script.offset) &&
      !RESERVED_BEFORE_COMMAND.has(text) && !RESERVED_OTHER.has(text) &&
      !(context.dialect === "posix" && BASH_RESERVED.has(text)) &&
      !hasReader(basename(text).toLowerCase())
    ) {
      collector.addName(text, node);
      return;
    }
  }
  const command = node.parent;
  if (command !== null && command.type === "command") {
    readCommand(collector, command, context);
  }
}

/**
 * Reads a command with its arguments. `statement` is the redirected statement around it when
 * its redirections carry stray words; otherwise those are read when the walk reaches them.
 */
function readCommand(
  collector: Collector,
  node: SyntaxNode,
  context: RunContext,
  statement: SyntaxNode | null = null,
): void {
  if (carriedOverLineBreak(node, context.script)) {
    collector.fail("a command the grammar carries over a line break, where bash ends it");
    return;
  }
  const words = commandArgs(node, context.script, statement);
  if (words === null) return;
  // After an assignment or a redirection a reserved word is an ordinary name to bash.
  collector.run({
    args: words.args,
    index: 0,
    keyword: !words.prefixed,
    context: { ...context, stdin: node },
  });
}

/**
 * A redirection carrying words bash reads as command words (`2>/dev/null rm x` after
 * `sudo`, `<<EOF -c 'rm x'` after `bash`): the owning command is read again with them, or,
 * when there is no command, the words are one.
 */
function readStrayWords(collector: Collector, redirect: SyntaxNode, context: RunContext): void {
  const parent = redirect.parent;
  if (parent !== null && parent.type === "command") {
    readCommand(collector, parent, context);
    return;
  }
  if (parent === null || parent.type !== "redirected_statement") {
    collector.fail("words after a redirection that the grammar attaches to it");
    return;
  }
  const body = parent.childForFieldName("body");
  if (body !== null && body.type === "command") {
    readCommand(collector, body, context, parent);
    return;
  }
  if (body !== null) {
    collector.fail("words after the redirection of a compound command");
    return;
  }
  let words: SyntaxNode[] = [];
  for (const other of parent.childrenForFieldName("redirect")) {
    if (other !== null) words = words.concat(strayWords(other));
  }
  words.sort((a, b) => a.startIndex - b.startIndex);
  const args = words.map((node) => ({ node, script: context.script }));
  collector.run({ args, index: 0, keyword: false, context });
}
