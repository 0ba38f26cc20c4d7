import type { SyntaxNode } from "./bash_parser.ts";
import type { Invocation } from "./command_reader.ts";
import type { Dialect } from "./dialect.ts";
import { resolveIn } from "./run_context.ts";
import { type Arg, DYNAMIC_REASONS, resolve, staticWord, wordProblem } from "./words.ts";

/** Script files that are standard input. */
export const STDIN_FILES = /^\/(dev\/stdin|dev\/fd\/0|proc\/self\/fd\/0)$/;
/** Script files that are descriptors or devices: their content comes from elsewhere. */
export const DEVICE_FILES = /^\/(dev|proc)\//;

/** Reads a script given as one argument (`bash -c SCRIPT`, `trap ACTION`); null, as `Next`. */
export function readScriptArg(
  call: Invocation,
  arg: Arg | undefined,
  what: string,
  dialect: Dialect = "bash",
): null {
  const { collector, context } = call;
  if (arg === undefined) {
    return collector.fail(
      context.openEnded ?? `${what} is missing; it may be supplied at run time`,
    );
  }
  const word = resolveIn(arg, context);
  if ("dynamic" in word) {
    return collector.fail(`${what} is not a static string: it contains ${word.dynamic}`);
  }
  const problem = wordProblem(word, what);
  if (problem !== null) return collector.fail(problem);
  collector.script(word.value, what, context.nesting, dialect);
  return null;
}

/** A program reading a script from standard input: here-documents are read, else unknown. */
export function readStdinScript(
  call: Invocation,
  who: string,
  parse: boolean,
  dialect: Dialect = "bash",
): null {
  const { collector, context } = call;
  const what = `${who} reads its script from standard input`;
  const node = context.stdin;
  if (node === null) return collector.fail(`${what}, which the policy cannot see`);
  const texts = stdinTexts(call, stdinRedirects(node), what);
  if (texts === null) return null;
  if (texts.length === 0) {
    return collector.fail(`${what} (a pipe or the session's input), which the policy cannot see`);
  }
  if (!parse) {
    return collector.fail(`${what} (a here-document or here-string), which is not bash`);
  }
  for (const text of texts) {
    collector.script(text, `the here-document fed to ${who}`, context.nesting, dialect);
  }
  return null;
}

/** The redirections of the command `node` and of the statement around it. */
function stdinRedirects(node: SyntaxNode): SyntaxNode[] {
  const redirects: SyntaxNode[] = [];
  for (const child of node.children) {
    if (child !== null && child.type.endsWith("redirect")) redirects.push(child);
  }
  const parent = node.parent;
  if (parent !== null && parent.type === "redirected_statement") {
    for (const child of parent.children) {
      if (child !== null && child.type.endsWith("redirect")) redirects.push(child);
    }
  }
  return redirects;
}

/**
 * The texts the here-documents and here-strings among `redirects` feed to standard input; null
 * when one cannot be read or input comes from a file (the reason is recorded).
 */
function stdinTexts(call: Invocation, redirects: SyntaxNode[], what: string): string[] | null {
  const { collector, context } = call;
  const texts: string[] = [];
  for (const redirect of redirects) {
    const first = redirect.firstChild;
    const descriptor = first !== null && first.type === "file_descriptor" ? first.text : "0";
    if (descriptor !== "0") continue;
    if (redirect.type === "heredoc_redirect") {
      const text = heredocText(call, redirect);
      if (text === null) return null;
      texts.push(text);
    } else if (redirect.type === "herestring_redirect") {
      const value = redirect.lastNamedChild;
      const word = value === null
        ? staticWord("")
        : resolve({ node: value, script: context.script });
      if ("dynamic" in word) return collector.fail(`${what}, a here-string with ${word.dynamic}`);
      texts.push(`${word.value}\n`);
    } else if (redirect.type === "file_redirect") {
      const operator = redirect.children.find((c) => c !== null && !c.isNamed)?.type ?? "";
      if (operator.startsWith("<")) {
        return collector.fail(`${what}, redirected from a file the policy cannot see`);
      }
    }
  }
  return texts;
}

function heredocText(call: Invocation, redirect: SyntaxNode): string | null {
  let quoted = false;
  let stripTabs = false;
  let body: SyntaxNode | null = null;
  for (const child of redirect.children) {
    if (child === null) continue;
    if (child.type === "<<-") stripTabs = true;
    else if (child.type === "heredoc_start") quoted = /['"\\]/.test(child.text);
    else if (child.type === "heredoc_body" || child.type === "simple_heredoc_body") body = child;
  }
  if (body === null) return "";
  if (!quoted) {
    const expansion = body.namedChildren.find((c) => c !== null && c.type !== "heredoc_content");
    if (expansion !== undefined && expansion !== null) {
      return call.collector.fail(
        `a here-document fed to a shell contains ${
          DYNAMIC_REASONS[expansion.type] ?? "an expansion"
        }`,
      );
    }
  }
  let text = body.text;
  if (!quoted) text = text.replace(/\\([$`\\])|\\\n/g, (_, c: string | undefined) => c ?? "");
  if (stripTabs) text = text.replace(/^\t+/gm, "");
  return text;
}

/** Words joined with spaces and run with `sh -c` (`watch`, `ssh`, `git submodule foreach`). */
export function readJoinedScript(
  call: Invocation,
  operands: readonly number[],
  what: string,
  dialect: Dialect = "bash",
): null {
  const { collector, args, context } = call;
  const parts: string[] = [];
  for (const index of operands) {
    const word = resolveIn(args[index], context);
    if ("dynamic" in word) return collector.fail(`${what} contains ${word.dynamic}`);
    parts.push(word.value);
  }
  collector.script(parts.join(" "), what, context.nesting, dialect);
  return null;
}

/** Reads the scripts given to options `names` from `args[start]` on (`git rebase -x`). */
export function readOptionScripts(
  call: Invocation,
  start: number,
  options: { who: string; names: readonly string[] },
): null {
  const { collector, args, context } = call;
  const { who, names } = options;
  for (let i = start; i < args.length; i++) {
    const word = resolveIn(args[i], context);
    if (!("value" in word)) continue;
    const text = word.value;
    for (const name of names) {
      if (text === name) {
        readScriptArg(call, args[i + 1], `the command given to ${who} ${name}`);
        i++;
      } else if (text.startsWith(`${name}=`) || (name.length === 2 && text.startsWith(name))) {
        const value = text.slice(name.length + (text[name.length] === "=" ? 1 : 0));
        collector.script(value, `the command given to ${who} ${name}`, context.nesting, "bash");
      }
    }
  }
  return null;
}
