import { BashParseError } from "./bash_parse_error.ts";
import type { BashParser, SyntaxNode } from "./bash_parser.ts";
import type { ExtractResult } from "./extract_result.ts";
import { followCommandWord } from "./command_word.ts";
import type { Collector, Next, Step } from "./command_reader.ts";
import { bracketTestProblem, findSuspectSpot, gluedOpener } from "./suspect_spots.ts";
import { ArithmeticTracker } from "./arithmetic.ts";
import { type Dialect, dialectOf } from "./dialect.ts";
import { readCommandName, readRedirect, splitWord } from "./command_nodes.ts";
import { readBacktick, readHeredoc } from "./heredocs.ts";
import type { RunContext } from "./run_context.ts";
import {
  readArithmetic,
  readAssignment,
  readDeclaration,
  readExpansion,
  readLoopVariable,
  readSubscript,
  readTest,
  readUnset,
} from "./script_nodes.ts";
import { refusedVariableMessage, variableRule } from "./variable_policy.ts";
import { type Arg, resolve, resolveNode, type Script } from "./words.ts";

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
  "command_substitution",
  "expansion",
  "arithmetic_expansion",
  "c_style_for_statement",
  "for_statement",
  "subscript",
  "concatenation",
];

/** Options of {@link NameCollector}. */
export interface CollectorOptions {
  /** `performance.now()` time after which nested scripts are no longer parsed. */
  deadline: number;
  /** The dialect of `sh`, the system's `/bin/sh`. @default "bash" */
  shDialect?: Dialect;
  /** Names of the variables the caller sets in the child's environment (`env` argument). */
  callerVariables?: ReadonlySet<string>;
}

/** Collects the command names of one command line, following scripts and wrappers. */
export class NameCollector implements Collector {
  #parser: BashParser;
  #deadline: number;
  #shDialect: Dialect;
  #callerVariables: ReadonlySet<string>;
  #names: string[] = [];
  #functions: string[] = [];
  #unknown: string | null = null;
  #refused: string | null = null;
  #recorded = new WeakMap<object, Set<number>>();

  constructor(parser: BashParser, options: CollectorOptions) {
    this.#parser = parser;
    this.#deadline = options.deadline;
    this.#shDialect = options.shDialect ?? "bash";
    this.#callerVariables = options.callerVariables ?? new Set();
  }

  /** The names found, or why the command is refused or a name cannot be known. */
  result(): ExtractResult {
    if (this.#refused !== null) return { refused: this.#refused, names: this.#names };
    if (this.#unknown !== null) return { unknown: this.#unknown, names: this.#names };
    return { names: this.#names, functions: this.#functions };
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

  /** Records a refusal whose message is complete; the first one is reported. */
  refuse(message: string): null {
    this.#refused ??= message;
    return null;
  }

  /** The dialect of the shell a command names. */
  shellDialect(name: string): Dialect {
    return dialectOf(name, this.#shDialect);
  }

  /** Reads one parsed script, read by `dialect`: its suspect spots, then every node of note. */
  walk(root: SyntaxNode, script: Script, nesting: number, dialect: Dialect): void {
    const spot = findSuspectSpot(root, script);
    if (spot !== null) this.fail(spot);
    const context: RunContext = {
      script,
      stdin: null,
      openEnded: null,
      placeholder: null,
      nesting,
      dialect,
      arithmetic: dialect === "bash" ? new ArithmeticTracker(this.#callerVariables) : null,
    };
    // One call into the wasm side collects the nodes of interest in document order; walking
    // every node from JavaScript costs several wasm calls per node.
    for (const node of root.descendantsOfType(WALKED_TYPES)) {
      if (node !== null) this.#node(node, context);
    }
    const problem = context.arithmetic?.problem() ?? null;
    if (problem !== null) this.fail(problem);
  }

  #node(node: SyntaxNode, context: RunContext): void {
    switch (node.type) {
      case "command_name":
        return readCommandName(this, node, context);
      case "heredoc_redirect":
        readHeredoc(this, node, context);
        return readRedirect(this, node, context);
      case "file_redirect":
        return readRedirect(this, node, context);
      case "test_command":
        return this.#testCommand(node, context);
      case "compound_statement":
        readArithmetic(this, node, context);
        return void this.#glued(node, context.script);
      case "negated_command":
        return void this.#glued(node, context.script);
      case "function_definition":
        return this.#functionDefinition(node);
      case "variable_assignment":
        return readAssignment(this, node, context);
      case "declaration_command":
      case "unset_command":
        return this.#declaration(node, context);
      case "command_substitution":
        return readBacktick(this, node, context);
      case "expansion":
        return readExpansion(this, node, context);
      case "arithmetic_expansion":
      case "c_style_for_statement":
        return readArithmetic(this, node, context);
      case "for_statement":
        return readLoopVariable(this, node, context);
      case "subscript":
        return readSubscript(node, context);
      case "concatenation":
        return this.#concatenation(node);
    }
  }

  #concatenation(node: SyntaxNode): void {
    if (splitWord(node)) {
      this.fail("a word the grammar carries over a blank or a line break, where bash ends it");
    }
  }

  #testCommand(node: SyntaxNode, context: RunContext): void {
    if (context.dialect === "posix" && node.text.startsWith("[[")) {
      this.fail(
        "a [[ test, which a POSIX shell such as dash runs as a command named [[ and more commands; use [ ] or run the command with bash",
      );
    }
    readTest(node, context);
    this.#glued(node, context.script);
    this.#problem(bracketTestProblem(node));
  }

  /** `declare`, `export`, `unset`...: the keyword is a name, the variables it sets are read. */
  #declaration(node: SyntaxNode, context: RunContext): void {
    const keyword = node.firstChild;
    if (keyword !== null) this.#names.push(keyword.type);
    if (node.type === "unset_command") readUnset(this, node, context);
    else readDeclaration(this, node, context);
  }

  #glued(node: SyntaxNode, script: Script): void {
    this.#problem(gluedOpener(node, script));
  }

  #problem(problem: string | null): void {
    if (problem !== null) this.fail(problem);
  }

  /** Parses and walks a script that `dialect` reads (a shell's `-c`, a here-document...). */
  script(text: string, what: string, nesting: number, dialect: Dialect): void {
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
      else this.walk(tree.rootNode, { text, offset: 0 }, nesting + 1, dialect);
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

  /** Applies the variable policy to setting `name` to `value` (null: set at run time). */
  variableWrite(name: string, value: Arg | null, nesting: number): void {
    const rule = variableRule(name);
    if (rule === null) return;
    if (rule.kind === "refused") {
      this.refuse(refusedVariableMessage(name, rule.why));
      return;
    }
    if (value === null) {
      this.fail(`${name} holds a command line and its value is set at run time`);
      return;
    }
    const word = resolve(value);
    if ("dynamic" in word) {
      this.fail(`${name} holds a command line and its value contains ${word.dynamic}`);
      return;
    }
    // Programs run these with `sh -c`, or split them into words: read as the system shell.
    const command = `the command line in ${name}`;
    if (word.value.trim() !== "") this.script(word.value, command, nesting, this.#shDialect);
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
