import type { SyntaxNode } from "./bash_parser.ts";
import type { Arg, Script } from "./words.ts";

/** The words of a simple command as bash reads them, from the command name on. */
export interface CommandArgs {
  args: Arg[];
  /** Whether an assignment or a redirection comes first, so reserved words are plain names. */
  prefixed: boolean;
}

/**
 * The words of a command, or null when it has no name. `statement` is the redirected statement
 * around it when its redirections carry stray words.
 */
export function commandArgs(
  node: SyntaxNode,
  script: Script,
  statement: SyntaxNode | null,
): CommandArgs | null {
  const args: Arg[] = [];
  let named = false;
  let prefixed = false;
  let stray: SyntaxNode[] = [];
  for (const child of node.children) {
    if (child === null) continue;
    const type = child.type;
    if (type === "command_name") {
      args.push({ node: child, script });
      named = true;
      continue;
    }
    if (type.endsWith("redirect")) stray = stray.concat(strayWords(child));
    if (!named) {
      prefixed = true;
      continue;
    }
    if (isArgument(child, script)) args.push({ node: child, script });
  }
  if (!named) return null;
  for (const redirect of statement?.childrenForFieldName("redirect") ?? []) {
    if (redirect !== null) stray = stray.concat(strayWords(redirect));
  }
  if (stray.length > 0) {
    // Words the grammar hung on a redirection are command words to bash, in source order.
    args.push(...stray.map((word) => ({ node: word, script })));
    args.sort((a, b) => ("node" in a && "node" in b ? a.node.startIndex - b.node.startIndex : 0));
    prefixed ||= "node" in args[0] && args[0].node.type !== "command_name";
  }
  return { args, prefixed };
}

/** Whether a child after the command name is an argument (not a redirection or a comment). */
function isArgument(child: SyntaxNode, script: Script): boolean {
  const type = child.type;
  if (type.endsWith("redirect") || type === "comment") return false;
  // `bash 0<file`: the grammar reads the descriptor as an argument.
  return !((type === "number" || type === "word") && /^\d+$/.test(child.text) &&
    /[<>]/.test(script.text[child.endIndex - script.offset] ?? ""));
}

/**
 * Words the grammar attached to a redirection that bash reads as command words: destinations
 * after the first (`>f -la`), words after a here-document start (`<<EOF -c 'rm x'`).
 */
export function strayWords(redirect: SyntaxNode): SyntaxNode[] {
  const type = redirect.type;
  const field = type === "file_redirect" ? "destination" : "argument";
  if (type !== "file_redirect" && type !== "heredoc_redirect") return [];
  const words = redirect.childrenForFieldName(field).filter((n): n is SyntaxNode => n !== null);
  return type === "file_redirect" ? words.slice(1) : words;
}
