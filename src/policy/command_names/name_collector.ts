import { BashParseError } from "./bash_parse_error.ts";
import type { BashParser, SyntaxNode } from "./bash_parser.ts";
import { commandArgs, strayWords } from "./command_args.ts";
import type { ExtractResult } from "./extract_result.ts";
import { hasReader } from "./commands/reader_table.ts";
import { followCommandWord } from "./command_word.ts";
import type { Collector, Next, Step } from "./command_reader.ts";
import { basename } from "./name_lists.ts";
import { RESERVED_BEFORE_COMMAND, RESERVED_OTHER } from "./reserved_words.ts";
import { findSuspectSpot, gluedOpener } from "./suspect_spots.ts";
import { COMMAND_VARIABLES, STARTUP_VARIABLES } from "./command_variables.ts";
import {
  type Arg,
  endsWord,
  resolve,
  resolveNode,
  type Script,
  staticWord,
  wordProblem,
} from "./words.ts";

/** How deeply scripts and wrappers may nest before the command is refused. */
const MAX_NESTING = 24;

/** The nodes the walk reads: those that can run something or that bash reads differently. */
const WALKED_TYPES = [
  "command_name",
  "variable_assignment",
  "compound_statement",
  "negated_command",
  "file_redirect",
  "heredoc_redirect",
  "test_command",
  "function_definition",
  "declaration_command",
  "unset_command",
];

/** A command name needing no unquoting and no pattern check: the common, fast case. */
const PLAIN_NAME = /^[\w./+@%:,=-]+$/;

/** Collects the command names of one command line, following scripts and wrappers. */
export class NameCollector implements Collector {
  #parser: BashParser;
  #deadline: number;
  #names: string[] = [];
  #functions: string[] = [];
  #reassignsPath = false;
  #unknown: string | null = null;
  #recorded = new WeakMap<object, Set<number>>();

  constructor(parser: BashParser, deadline: number) {
    this.#parser = parser;
    this.#deadline = deadline;
  }

  /** The names found, or why one cannot be known. */
  result(): ExtractResult {
    if (this.#unknown !== null) return { unknown: this.#unknown, names: this.#names };
    return {
      names: this.#names,
      functions: this.#functions,
      reassignsPath: this.#reassignsPath,
    };
  }

  /** Records why a name cannot be known; the first reason is the one reported. */
  fail(reason: string): null {
    this.#unknown ??= reason;
    return null;
  }

  /**
   * Records a name; a word node already recorded is skipped, since a command carrying stray
   * redirection words is read twice.
   */
  addName(name: string, node: SyntaxNode | null = null): void {
    if (node !== null) {
      let ids = this.#recorded.get(node.tree);
      if (ids === undefined) this.#recorded.set(node.tree, ids = new Set());
      if (ids.has(node.id)) return;
      ids.add(node.id);
    }
    this.#names.push(name);
  }

  /** Notes that the command line may change PATH. */
  reassignPath(): void {
    this.#reassignsPath = true;
  }

  /** Reads one parsed script: its suspect spots, then every node that can run something. */
  walk(root: SyntaxNode, script: Script, nesting: number): void {
    if (/(?<![\w${])PATH(?!\w)|\$\{PATH:?=/.test(script.text)) this.#reassignsPath = true;
    const spot = findSuspectSpot(root, script);
    if (spot !== null) this.fail(spot);
    // One call into the wasm side collects the nodes of interest in document order; walking
    // every node from JavaScript costs several wasm calls per node.
    for (const node of root.descendantsOfType(WALKED_TYPES)) {
      if (node === null) continue;
      switch (node.type) {
        case "command_name":
          this.#commandName(node, script, nesting);
          break;
        case "file_redirect":
        case "heredoc_redirect": {
          // Only digits (or `{name}`) make a descriptor to bash: `-x2>&1` is a word and `>&1`.
          const first = node.firstChild;
          if (first?.type === "file_descriptor" && !/^(\d+|\{\w+\})$/.test(first.text)) {
            this.fail(
              "a word the grammar reads as a file descriptor, which bash runs as a command",
            );
          } else if (strayWords(node).length > 0) this.#strayWords(node, script, nesting);
          break;
        }
        case "test_command":
        case "negated_command":
        case "compound_statement": {
          const problem = gluedOpener(node, script);
          if (problem !== null) this.fail(problem);
          break;
        }
        case "function_definition":
          this.#functionDefinition(node);
          break;
        case "variable_assignment":
          this.#variableAssignment(node, script, nesting);
          break;
        case "declaration_command":
        case "unset_command": {
          const keyword = node.firstChild;
          if (keyword !== null) this.#names.push(keyword.type);
          break;
        }
      }
    }
  }

  /** Parses and walks a script handed to a shell or to a program that runs it with `sh -c`. */
  script(text: string, what: string, nesting: number): void {
    if (nesting >= MAX_NESTING) {
      this.fail(`${what} is nested too deeply`);
      return;
    }
    let tree;
    try {
      tree = this.#parser.parse(text, { deadline: this.#deadline });
    } catch (error) {
      if (!(error instanceof BashParseError)) throw error;
      this.fail(`${what} could not be parsed: ${error.message}`);
      return;
    }
    try {
      if (tree.rootNode.hasError) this.fail(`${what} could not be parsed as bash`);
      else this.walk(tree.rootNode, { text, offset: 0 }, nesting + 1);
    } finally {
      tree.delete();
    }
  }

  #functionDefinition(node: SyntaxNode): void {
    const name = node.childForFieldName("name");
    if (name === null) return;
    const word = resolveNode(name);
    if ("value" in word) this.#functions.push(word.value);
    else this.fail(`a function name contains ${word.dynamic}`);
  }

  #variableAssignment(node: SyntaxNode, script: Script, nesting: number): void {
    // Arithmetic assignments (`for ((i = 0; ...))`) may have blanks around the name.
    const name = (/^[^=]*?(?=\+?=)/.exec(node.text)?.[0] ?? "").trim();
    // The grammar accepts names bash does not (`1x=`, `é=`): to bash the word is a command.
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\[|$)/.test(name)) {
      this.fail("a word the grammar reads as an assignment, which bash runs as a command");
      return;
    }
    if (!COMMAND_VARIABLES.has(name) && !STARTUP_VARIABLES.has(name)) return;
    const value = node.childForFieldName("value");
    this.assignment(
      name,
      value === null ? staticWord("") : { node: value, script },
      nesting,
    );
  }

  /** Checks an environment assignment, from the grammar or from `env`/`sudo` arguments. */
  assignment(name: string, value: Arg, nesting: number): void {
    if (name === "PATH") this.#reassignsPath = true;
    if (STARTUP_VARIABLES.has(name)) {
      this.fail(`${name} makes a shell run a file first`);
      return;
    }
    if (!COMMAND_VARIABLES.has(name)) return;
    const word = resolve(value);
    if ("dynamic" in word) {
      this.fail(`${name} holds a command line and its value contains ${word.dynamic}`);
      return;
    }
    if (word.value.trim() !== "") this.script(word.value, `the command line in ${name}`, nesting);
  }

  /** A command name: recorded at once when plain, else its command is read in full. */
  #commandName(node: SyntaxNode, script: Script, nesting: number): void {
    const text = node.text;
    if (PLAIN_NAME.test(text)) {
      if (
        endsWord(script.text, node.startIndex + text.length - script.offset) &&
        !RESERVED_BEFORE_COMMAND.has(text) && !RESERVED_OTHER.has(text) &&
        !hasReader(basename(text).toLowerCase())
      ) {
        this.addName(text, node);
        return;
      }
    }
    const command = node.parent;
    if (command !== null && command.type === "command") {
      this.#command(command, script, nesting);
    }
  }

  /**
   * Reads a command with its arguments. `statement` is the redirected statement around it when
   * its redirections carry stray words; otherwise those are read when the walk reaches them.
   */
  #command(
    node: SyntaxNode,
    script: Script,
    nesting: number,
    statement: SyntaxNode | null = null,
  ): void {
    const words = commandArgs(node, script, statement);
    if (words === null) return;
    // After an assignment or a redirection a reserved word is an ordinary name to bash.
    this.run({
      args: words.args,
      index: 0,
      keyword: !words.prefixed,
      context: { script, stdin: node, openEnded: null, placeholder: null, nesting },
    });
  }

  /**
   * A redirection carrying words bash reads as command words (`2>/dev/null rm x` after
   * `sudo`, `<<EOF -c 'rm x'` after `bash`): the owning command is read again with them, or,
   * when there is no command, the words are one.
   */
  #strayWords(redirect: SyntaxNode, script: Script, nesting: number): void {
    const parent = redirect.parent;
    if (parent !== null && parent.type === "command") {
      this.#command(parent, script, nesting);
      return;
    }
    if (parent === null || parent.type !== "redirected_statement") {
      this.fail("words after a redirection that the grammar attaches to it");
      return;
    }
    const body = parent.childForFieldName("body");
    if (body !== null && body.type === "command") {
      this.#command(body, script, nesting, parent);
      return;
    }
    if (body !== null) {
      this.fail("words after the redirection of a compound command");
      return;
    }
    let words: SyntaxNode[] = [];
    for (const other of parent.childrenForFieldName("redirect")) {
      if (other !== null) words = words.concat(strayWords(other));
    }
    words.sort((a, b) => a.startIndex - b.startIndex);
    const context = { script, stdin: null, openEnded: null, placeholder: null, nesting };
    this.run({ args: words.map((node) => ({ node, script })), index: 0, keyword: false, context });
  }

  /** Follows a command word and the wrappers it names, iteratively. */
  run(step: Step): void {
    let next: Next = step;
    while (next !== null) {
      if (next.context.nesting >= MAX_NESTING) {
        this.fail("wrappers are nested too deeply");
        return;
      }
      next = followCommandWord(this, next);
    }
  }
}
