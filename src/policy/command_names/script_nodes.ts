import type { SyntaxNode } from "./bash_parser.ts";
import type { Collector } from "./command_reader.ts";
import { arithmeticWrites } from "./commands/variable_builtins.ts";
import type { RunContext } from "./run_context.ts";
import { resolve, resolveNode, staticWord, type Word } from "./words.ts";

/**
 * Readers of the nodes of a script that set variables or evaluate text as arithmetic; each is
 * called by the collector's walk with the context of the script being read.
 */

/** Operators of `[[ ]]` whose operands bash evaluates as arithmetic. */
const ARITHMETIC_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

/** Reads `NAME=value`, `NAME[i]=value`, `NAME+=(...)`: the variable policy, then arithmetic. */
export function readAssignment(collector: Collector, node: SyntaxNode, context: RunContext): void {
  // Arithmetic assignments (`for ((i = 0; ...))`) may have blanks around the name.
  const target = (/^[^=]*?(?=\+?=)/.exec(node.text)?.[0] ?? "").trim();
  // The grammar accepts names bash does not (`1x=`, `é=`): to bash the word is a command.
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(\[.*\])?$/s.exec(target);
  if (match === null) {
    collector.fail("a word the grammar reads as an assignment, which bash runs as a command");
    return;
  }
  const name = match[1];
  if (context.dialect === "posix" && /^[^=]*\+=/.test(node.text)) {
    collector.fail("a += assignment, which a POSIX shell such as dash runs as a command");
    return;
  }
  const value = node.childForFieldName("value");
  const arithmetic = context.arithmetic;
  if (arithmetic !== null) {
    if (match[2] !== undefined) arithmetic.subscript(name, match[2].slice(1, -1), node.startIndex);
    if (node.parent?.type === "c_style_for_statement") {
      arithmetic.arithmeticWrite(name, node.startIndex);
      if (value !== null) arithmetic.use(value.text, node.startIndex, "a for (( )) loop");
    } else if (value?.type === "array") {
      arithmetic.write(name, null, node.startIndex);
      for (const element of value.namedChildren) {
        const key = element === null ? null : /^\[([^\]]*)\]=/.exec(element.text);
        if (key !== null) arithmetic.subscript(name, key[1], node.startIndex);
      }
    } else {
      const word = value === null ? staticWord("") : resolveNode(value);
      arithmetic.write(name, "value" in word ? word.value : null, node.startIndex);
    }
  }
  const arg = value === null ? staticWord("") : { node: value, script: context.script };
  collector.variableWrite(name, arg, context.nesting);
}

/**
 * Reads `declare`, `typeset`, `local`, `export`, `readonly`: quoted `NAME=value` words are
 * assignments too, a nameref can point anywhere, and `-i` makes every value arithmetic.
 */
export function readDeclaration(collector: Collector, node: SyntaxNode, context: RunContext): void {
  const keyword = node.firstChild?.type ?? "";
  const flags = { integer: false, associative: false };
  for (const child of node.namedChildren) {
    if (child === null || child.type === "variable_assignment") continue;
    declarationWord(collector, { node, child, keyword, flags }, context);
  }
  if (!flags.integer || context.arithmetic === null) return;
  for (const assignment of node.namedChildren) {
    const value = assignment?.type === "variable_assignment"
      ? assignment.childForFieldName("value")
      : null;
    if (value !== null && value !== undefined) {
      context.arithmetic.use(value.text, node.startIndex, `${keyword} -i`);
    }
  }
}

/** One word of a declaration (`child` of `node`): its flags, or the variable it declares. */
function declarationWord(
  collector: Collector,
  at: {
    node: SyntaxNode;
    child: SyntaxNode;
    keyword: string;
    flags: { integer: boolean; associative: boolean };
  },
  context: RunContext,
): void {
  const { node, keyword, flags } = at;
  const word = argumentWord(at.child, context);
  if (!("value" in word)) {
    return void collector.fail(`an argument of ${keyword} contains ${word.dynamic}`);
  }
  const text = word.value;
  if (/^[-+]/.test(text)) {
    if (/n/.test(text)) collector.fail(`${keyword} ${text} makes a name refer to any variable`);
    if (/i/.test(text)) flags.integer = true;
    if (/A/.test(text)) flags.associative = true;
    return;
  }
  const eq = text.indexOf("=");
  const name = eq < 0 ? text : text.slice(0, eq).replace(/\+$/, "");
  const base = name.replace(/\[.*$/s, "");
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(base)) {
    return void collector.fail(`${keyword} names a variable the policy cannot read (${base})`);
  }
  if (flags.associative) context.arithmetic?.associative(base);
  if (name !== base) context.arithmetic?.subscript(base, name.slice(base.length + 1, -1), 0);
  if (eq >= 0) {
    collector.variableWrite(base, staticWord(text.slice(eq + 1)), context.nesting);
    context.arithmetic?.write(base, text.slice(eq + 1), node.startIndex);
  } else if (keyword !== "export" && keyword !== "readonly") {
    // `local PATH` leaves PATH unset in the function.
    collector.variableWrite(base, null, context.nesting);
  }
}

/** A word of a declaration or `unset`: the grammar gives bare names as `variable_name`. */
function argumentWord(node: SyntaxNode, context: RunContext): Word {
  if (node.type === "variable_name") return staticWord(node.text);
  return resolve({ node, script: context.script });
}

/** Reads `unset NAME...`: unsetting PATH changes what bare names run; subscripts are arithmetic. */
export function readUnset(collector: Collector, node: SyntaxNode, context: RunContext): void {
  let functions = false;
  for (const child of node.namedChildren) {
    if (child === null) continue;
    const word = argumentWord(child, context);
    if (!("value" in word)) {
      collector.fail(`an argument of unset contains ${word.dynamic}`);
      continue;
    }
    if (/^-\w*f/.test(word.value)) functions = true;
    if (word.value.startsWith("-") || functions) continue;
    const base = word.value.replace(/\[.*$/s, "");
    if (base === "PATH") collector.variableWrite(base, null, context.nesting);
    if (base !== word.value) {
      context.arithmetic?.subscript(base, word.value.slice(base.length + 1, -1), node.startIndex);
    }
  }
}

/** Reads the variable of `for NAME in ...` and `select NAME in ...`. */
export function readLoopVariable(
  collector: Collector,
  node: SyntaxNode,
  context: RunContext,
): void {
  const variable = node.childForFieldName("variable");
  if (variable === null) return;
  const name = variable.text;
  collector.variableWrite(name, null, context.nesting);
  if (context.arithmetic === null) return;
  const values = node.childrenForFieldName("value");
  const numbers = values.length > 0 &&
    values.every((value) => value !== null && /^\d+$/.test(value.text));
  context.arithmetic.write(name, numbers ? "0" : null, node.startIndex);
}

/**
 * Reads `${...}`: `${NAME:=word}` sets NAME; under bash, `${!NAME}` and `${NAME@P}` expand data
 * as code and substring offsets are arithmetic.
 */
export function readExpansion(collector: Collector, node: SyntaxNode, context: RunContext): void {
  const text = node.text;
  const assigned = /^\$\{([A-Za-z_]\w*):?=/.exec(text);
  if (assigned !== null) {
    collector.variableWrite(assigned[1], null, context.nesting);
    context.arithmetic?.write(assigned[1], null, node.startIndex);
  }
  const arithmetic = context.arithmetic;
  if (arithmetic === null) return;
  if (/^\$\{!/.test(text) && !/^\$\{![A-Za-z_]\w*(\[[@*]\]|[@*])\}$/.test(text)) {
    arithmetic.fail(
      "under bash, an indirect expansion (${!name}) can run commands hidden in the name it reads",
    );
  }
  if (/@P\}$/.test(text)) {
    arithmetic.fail("under bash, ${name@P} expands a value as a prompt, which runs commands");
  }
  const substring = /^\$\{(?:[A-Za-z_]\w*|[@*\d])(?:\[[^\]]*\])?:(?![-=+?])(.*)\}$/s.exec(text);
  if (substring !== null) arithmetic.use(substring[1], node.startIndex, "a substring offset");
}

/** Reads arithmetic: `$(( ))`, `$[ ]`, `(( ))`, the header of `for (( ))`. */
export function readArithmetic(collector: Collector, node: SyntaxNode, context: RunContext): void {
  const text = node.text;
  if (node.type === "compound_statement") {
    if (!text.startsWith("((")) return;
    if (context.dialect === "posix") {
      // dash has no `(( ))`: it runs the text as commands in two nested subshells.
      const what = "(( )), which a POSIX shell runs as commands in nested subshells";
      collector.script(text.slice(1, -1), what, context.nesting, "posix");
      return;
    }
  }
  arithmeticWrites({ collector, context }, text);
  const arithmetic = context.arithmetic;
  if (arithmetic === null) return;
  if (node.type === "c_style_for_statement") {
    const header = /^for\s*\(\((.*?)\)\)/s.exec(text);
    arithmetic.use(header === null ? text : header[1], node.startIndex, "a for (( )) loop");
    return;
  }
  arithmetic.use(text.replace(/^\$?(\(\(|\[)|(\)\)|\])$/g, ""), node.startIndex, "arithmetic");
}

/** Reads an array subscript outside an assignment (`${a[i]}`): arithmetic for indexed arrays. */
export function readSubscript(node: SyntaxNode, context: RunContext): void {
  const arithmetic = context.arithmetic;
  if (arithmetic === null || node.parent?.type === "variable_assignment") return;
  const name = node.childForFieldName("name")?.text ?? "";
  const index = node.childForFieldName("index")?.text ?? "";
  arithmetic.subscript(name, index, node.startIndex);
}

/** Reads `[[ ]]` under bash: `-eq` and the like compare arithmetic, `-v` reads a subscript. */
export function readTest(node: SyntaxNode, context: RunContext): void {
  const arithmetic = context.arithmetic;
  if (arithmetic === null) return;
  for (const test of node.descendantsOfType(["binary_expression", "unary_expression"])) {
    if (test === null) continue;
    const operator = test.childForFieldName("operator")?.text ??
      test.children.find((c) => c?.type === "test_operator")?.text ?? "";
    if (ARITHMETIC_TESTS.has(operator)) {
      for (const side of ["left", "right"]) {
        const operand = test.childForFieldName(side);
        if (operand !== null) arithmetic.use(operand.text, test.startIndex, `[[ ${operator} ]]`);
      }
    } else if (operator === "-v") {
      const operand = test.lastNamedChild;
      const word = operand === null ? null : resolve({ node: operand, script: context.script });
      if (word === null || !("value" in word)) {
        arithmetic.fail("under bash, [[ -v ]] reads a variable name set at run time");
      } else arithmetic.nameArgument(word.value, test.startIndex, "[[ -v ]]");
    }
  }
}
