import { BASH_SHELLS, readsBash } from "./shell_grammar.ts";
import { BashParseError } from "./bash_parser.ts";
import type { BashParser, SyntaxNode } from "./bash_parser.ts";
import type { Decision } from "./decision.ts";

/**
 * Command-name policy: finds every command a bash command line would run, with tree-sitter-bash,
 * and checks the names against a blacklist or a whitelist.
 *
 * Matching rules (documented in the README):
 * - blacklist: a name is blocked when its basename equals the basename of an entry, ignoring
 *   ASCII case (`/bin/RM` is blocked by `rm` and by `/usr/bin/rm`), so paths and
 *   case-insensitive file systems cannot dodge it;
 * - whitelist: a name is allowed only when it equals an entry exactly as written: a bare entry
 *   (`ls`) allows the bare name looked up on PATH, an entry with a slash allows that path only.
 */

/** The command-name lists; a non-empty whitelist wins over the blacklist. */
export interface NameLists {
  blacklist: readonly string[];
  whitelist: readonly string[];
}

/** What a command line would run, found statically. */
export interface CommandNames {
  /** Command names (unquoted, as written) in the order found; wrappers included. */
  names: string[];
  /** Names of the functions the command line defines. */
  functions: string[];
  /** Whether the command line may change PATH, so bare names may resolve to other files. */
  reassignsPath: boolean;
}

/** Names, or why a command name cannot be known statically (with the names found so far). */
export type ExtractResult = CommandNames | { unknown: string; names: string[] };

const UNKNOWN_SUFFIX =
  "; the command-name policy rejects it while a blacklist or whitelist is configured";
const MAX_NESTING = 24;
const MAX_MESSAGE_NAME = 80;

/** Shells whose `-c` scripts, script files and standard input are read as bash. */

/**
 * Checks every command name `command` would run against the lists.
 * Allows without parsing when both lists are empty; never throws.
 */
export function checkCommandNames(
  command: string,
  lists: NameLists,
  parser: BashParser,
): Decision {
  const mode = listMode(lists);
  if (mode === null) return { allow: true };
  try {
    // One time budget for the command and every script found inside it.
    const deadline = performance.now() + parser.timeoutMs;
    let tree;
    try {
      tree = parser.parse(command, { deadline });
    } catch (error) {
      if (!(error instanceof BashParseError)) throw error;
      return {
        allow: false,
        reason:
          `Command could not be parsed as bash: ${error.message}; the command-name policy fails closed while a list is configured`,
      };
    }
    try {
      if (tree.rootNode.hasError) {
        return {
          allow: false,
          reason:
            "Command could not be parsed as bash; the command-name policy fails closed while a list is configured",
        };
      }
      const result = extractCommandNames(tree.rootNode, parser, { source: command, deadline });
      return decide(result, lists, mode);
    } finally {
      tree.delete();
    }
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      allow: false,
      reason:
        `Command could not be checked (${detail}); the command-name policy fails closed while a list is configured`,
    };
  }
}

/**
 * Checks the explicit `shell` parameter: it is a command name too, and it must read bash,
 * since the names of anything else cannot be found with the bash grammar.
 */
export function checkShellName(shell: string, lists: NameLists): Decision {
  const mode = listMode(lists);
  if (mode === null) return { allow: true };
  const listed = checkName(shell, lists, mode);
  if (!listed.allow) return { allow: false, reason: listed.reason.replace(/^Command/, "Shell") };
  return checkShellGrammar(shell);
}

/**
 * Whether a shell reads bash syntax, so that the names in its commands can be found; the
 * operator's default shell is held to this alone, not to the lists.
 */
export function checkShellGrammar(shell: string): Decision {
  if (readsBash(shell)) return { allow: true };
  return {
    allow: false,
    reason: `Shell ${
      quoteName(shell)
    } does not read bash syntax, so the names of the commands it runs cannot be determined statically${UNKNOWN_SUFFIX}`,
  };
}

/**
 * Finds the command names of a parsed command line. Scripts handed to shells (`bash -c`,
 * here-documents fed to `sh`, `env -S`, `git -c alias.x=!...`) are parsed with `parser`.
 * The tree must be free of parse errors (`rootNode.hasError` false).
 */
export function extractCommandNames(
  root: SyntaxNode,
  parser: BashParser,
  options: ExtractOptions = {},
): ExtractResult {
  const { deadline = performance.now() + parser.timeoutMs } = options;
  const collector = new NameCollector(parser, deadline);
  const source = options.source ?? root.text;
  collector.walk(
    root,
    { text: source, offset: options.source === undefined ? root.startIndex : 0 },
    0,
  );
  return collector.result();
}

/** Options of {@link extractCommandNames}. */
export interface ExtractOptions {
  /**
   * The whole text that was parsed. The root node leaves out leading blanks and escapes, which
   * matter (`\ rm` runs " rm"). @default the root node's text
   */
  source?: string;
  /** `performance.now()` time after which nested scripts are no longer parsed. */
  deadline?: number;
}

type Mode = "blacklist" | "whitelist";

function listMode(lists: NameLists): Mode | null {
  if (lists.whitelist.length > 0) return "whitelist";
  if (lists.blacklist.length > 0) return "blacklist";
  return null;
}

function decide(result: ExtractResult, lists: NameLists, mode: Mode): Decision {
  for (const name of result.names) {
    const decision = checkName(name, lists, mode);
    if (!decision.allow) return decision;
  }
  if ("unknown" in result) {
    return {
      allow: false,
      reason: `Command name cannot be determined statically (${result.unknown})${UNKNOWN_SUFFIX}`,
    };
  }
  if (mode === "blacklist") {
    const blocked = new Set(lists.blacklist.map(blacklistKey));
    const shadow = result.functions.find((name) => blocked.has(blacklistKey(name)));
    if (shadow !== undefined) {
      return {
        allow: false,
        reason: `Defining a function named ${quoteName(shadow)} is blocked by the blacklist`,
      };
    }
  } else if (result.reassignsPath) {
    return {
      allow: false,
      reason:
        `Command name cannot be determined statically (the command may change PATH, so whitelisted bare names could run other files)${UNKNOWN_SUFFIX}`,
    };
  }
  return { allow: true };
}

function checkName(name: string, lists: NameLists, mode: Mode): Decision {
  if (mode === "blacklist") {
    const key = blacklistKey(name);
    if (lists.blacklist.some((entry) => blacklistKey(entry) === key)) {
      return { allow: false, reason: `Command ${quoteName(name)} is blocked by the blacklist` };
    }
    return { allow: true };
  }
  if (lists.whitelist.includes(name)) return { allow: true };
  const base = basename(name);
  const bare = name.includes("/") && lists.whitelist.includes(base);
  const hint = bare
    ? `; the entry ${quoteName(base)} allows only the bare name, so list ${
      quoteName(name)
    } to allow that path`
    : "";
  return { allow: false, reason: `Command ${quoteName(name)} is not in the whitelist${hint}` };
}

function basename(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1);
}

function blacklistKey(name: string): string {
  // zsh runs `=rm` as the path of rm; the leading `=` is dropped for the comparison.
  return basename(name).replace(/^=+/, "").toLowerCase();
}

function quoteName(name: string): string {
  const printable = name.replace(
    // deno-lint-ignore no-control-regex -- control characters are exactly what is escaped
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  const short = printable.length > MAX_MESSAGE_NAME
    ? `${printable.slice(0, MAX_MESSAGE_NAME - 3)}...`
    : printable;
  return `'${short}'`;
}

// ---------------------------------------------------------------------------------------------
// Words

/** A word's value when it is static, or why it is not. */
type Word =
  | { value: string; pattern: boolean; continued: boolean }
  | { dynamic: string; splits: boolean };

/** An argument: a syntax node of the script being read, or a word made by a wrapper. */
type Arg = { node: SyntaxNode; script: Script } | Word;

/** The text of the tree a node belongs to, to look at characters between tokens. */
interface Script {
  text: string;
  offset: number;
}

function staticWord(value: string): Word {
  return { value, pattern: false, continued: false };
}

function resolve(arg: Arg): Word {
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
function endsWord(text: string, index: number): boolean {
  return index >= text.length || WORD_BREAKS.includes(text[index]);
}

const WORD_BREAKS = " \t\n\r;&|()<>";

const DYNAMIC_REASONS: Record<string, string> = {
  simple_expansion: "a parameter expansion",
  expansion: "a parameter expansion",
  command_substitution: "a command substitution",
  arithmetic_expansion: "an arithmetic expansion",
  process_substitution: "a process substitution",
  ansi_c_string: "ANSI-C quoting ($'...')",
  translated_string: 'locale quoting ($"...")',
};

function resolveNode(node: SyntaxNode): Word {
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
    case "concatenation": {
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
    case "brace_expression":
      return { value: node.text, pattern: true, continued: false };
    default: {
      const reason = DYNAMIC_REASONS[node.type] ?? `an unsupported construct (${node.type})`;
      return { dynamic: reason, splits: node.type !== "ansi_c_string" };
    }
  }
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
function wordProblem(word: Word, what: string): string | null {
  if ("dynamic" in word) return `${what} contains ${word.dynamic}`;
  if (word.pattern) return `${what} contains a glob or brace pattern`;
  if (word.continued) return `${what} contains a line continuation`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Option scanning for wrappers

interface OptionSpec {
  /** Short options taking a value, attached (`-uroot`) or as the next word. */
  short?: string;
  /** Short options whose value can only be attached (`xargs -i{}`); never the next word. */
  attached?: string;
  /** Long options (without `--`) taking a value, after `=` or as the next word. */
  long?: readonly string[];
  /** Keep scanning after operands (GNU argument permutation, popt). */
  permute?: boolean;
}

interface ScannedOption {
  /** `-u` for short options, `--user` for long ones (abbreviations expanded when known). */
  name: string;
  value?: Arg;
}

type Scan = { options: ScannedOption[]; operands: number[] } | { unknown: string };

function scanOptions(args: readonly Arg[], start: number, spec: OptionSpec, who: string): Scan {
  const options: ScannedOption[] = [];
  const operands: number[] = [];
  const { short = "", attached = "", long = [], permute = false } = spec;
  for (let i = start; i < args.length; i++) {
    const word = resolve(args[i]);
    if (!("value" in word)) {
      if (permute && !word.splits) {
        operands.push(i);
        continue;
      }
      return { unknown: `an argument of ${who} contains ${word.dynamic}` };
    }
    const problem = wordProblem(word, `an argument of ${who}`);
    if (problem !== null) return { unknown: problem };
    const text = word.value;
    if (text === "--") {
      for (let j = i + 1; j < args.length; j++) operands.push(j);
      return { options, operands };
    }
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const given = text.slice(2, eq < 0 ? undefined : eq);
      const name = long.includes(given) ? given : long.find((n) => n.startsWith(given));
      if (eq >= 0) {
        options.push({ name: `--${name ?? given}`, value: staticWord(text.slice(eq + 1)) });
      } else if (name !== undefined && given.length > 0) {
        options.push({ name: `--${name}`, value: args[i + 1] });
        i++;
      } else options.push({ name: text });
      continue;
    }
    if (text.length > 1 && text[0] === "-") {
      for (let k = 1; k < text.length; k++) {
        const letter = text[k];
        const rest = text.slice(k + 1);
        if (short.includes(letter)) {
          if (rest.length > 0) options.push({ name: `-${letter}`, value: staticWord(rest) });
          else {
            options.push({ name: `-${letter}`, value: args[i + 1] });
            i++;
          }
          break;
        }
        if (attached.includes(letter)) {
          options.push({ name: `-${letter}`, value: staticWord(rest) });
          break;
        }
        options.push({ name: `-${letter}` });
      }
      continue;
    }
    if (!permute) {
      for (let j = i; j < args.length; j++) operands.push(j);
      return { options, operands };
    }
    operands.push(i);
  }
  return { options, operands };
}

function hasOption(options: readonly ScannedOption[], names: string): boolean {
  const wanted = names.split(" ");
  return options.some((option) => wanted.includes(option.name));
}

// ---------------------------------------------------------------------------------------------
// Wrappers: commands whose arguments name another command

interface WrapperSpec extends OptionSpec {
  /** Options after which the operands are not run (`command -v`, `sudo -l`). */
  queries?: string;
  /** Operands before the command (`timeout DURATION`, `chroot NEWROOT`). */
  operands?: number;
  /** `NAME=VALUE` words before the command set the environment (`sudo`). */
  assignments?: boolean;
  /** Options that start a shell reading standard input when no command follows. */
  shell?: string;
  /** Whether the wrapper starts a shell reading standard input when no command follows. */
  bareShell?: boolean;
  /** Options whose value is a shell command line. */
  scripts?: string;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    short: "aCcDghpRrTtUu",
    long: [
      "auth-type",
      "chdir",
      "chroot",
      "close-from",
      "command-timeout",
      "group",
      "host",
      "login-class",
      "other-user",
      "prompt",
      "role",
      "type",
      "user",
    ],
    queries: "-e -K -l -V -v --edit --remove-timestamp --list --version --validate --help",
    assignments: true,
    shell: "-i -s --login --shell",
  },
  doas: { short: "Cu", queries: "-C", shell: "-s" },
  nohup: {},
  nice: { short: "n", long: ["adjustment"] },
  timeout: { short: "sk", long: ["kill-after", "signal"], operands: 1 },
  time: { short: "fo", long: ["format", "output"] },
  exec: { short: "a" },
  command: { queries: "-v -V" },
  builtin: {},
  stdbuf: { short: "ioe", long: ["error", "input", "output"] },
  setsid: {},
  chroot: { long: ["groups", "userspec"], operands: 1, bareShell: true },
  strace: {
    short: "abeEIoOpPsSuUX",
    long: ["attach", "columns", "env", "output", "signal", "string-limit", "trace", "user"],
  },
  ltrace: { short: "aADeFlnopsuwx", long: ["output", "library"] },
  busybox: {},
  ionice: {
    short: "cnpPu",
    long: ["class", "classdata", "pid", "pgid", "uid"],
    queries: "-p -P -u",
  },
  taskset: { queries: "-p --pid", operands: 1 },
  chrt: { short: "TPD", queries: "-p --pid", operands: 1 },
  flock: { short: "wE", long: ["timeout", "conflict-exit-code"], operands: 1 },
  noglob: {},
  nocorrect: {},
  "-": {},
  unbuffer: {},
  caffeinate: { short: "tw" },
  pkexec: { long: ["user"] },
  mapfile: { short: "dnOsuCc", scripts: "-C" },
  readarray: { short: "dnOsuCc", scripts: "-C" },
  compgen: { short: "AGWXPSFCo", scripts: "-C" },
  complete: { short: "AGWXPSFCo", scripts: "-C" },
};

/** Wrappers whose operands are never a command (`mapfile`): scripts in options only. */
const NO_COMMAND = new Set(["mapfile", "readarray", "compgen", "complete"]);

/** Commands that run a string or a file as code, which cannot be read statically. */
const CODE_RUNNERS: Record<string, string> = {
  eval: "eval runs a string as code",
  source: "source runs a file as code",
  ".": ". runs a file as code",
  enable: "enable can load builtins from a shared object",
  alias: "aliases change what later names run",
  hash: "hash can bind a command name to another file",
};

/** Environment variables whose value is a command line that some program runs. */
const COMMAND_VARIABLES = new Set([
  "BROWSER",
  "EDITOR",
  "GIT_ASKPASS",
  "GIT_EDITOR",
  "GIT_EXTERNAL_DIFF",
  "GIT_PAGER",
  "GIT_PROXY_COMMAND",
  "GIT_SEQUENCE_EDITOR",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "LESSCLOSE",
  "LESSOPEN",
  "MANPAGER",
  "PAGER",
  "PROMPT_COMMAND",
  "RSYNC_RSH",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "SUDO_EDITOR",
  "VISUAL",
]);

/** Environment variables that make a shell run a file first. */
const STARTUP_VARIABLES = new Set(["BASH_ENV", "ENV"]);

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

/** Script files that are standard input. */
const STDIN_FILES = /^\/(dev\/stdin|dev\/fd\/0|proc\/self\/fd\/0)$/;
/** Script files that are descriptors or devices: their content comes from elsewhere. */
const DEVICE_FILES = /^\/(dev|proc)\//;

/** Whether a node is a token (a leaf other than an empty program). */
function isToken(node: SyntaxNode | null): boolean {
  return node !== null && node.childCount === 0 && node.type !== "program";
}

/** Reserved words that may precede a command: skipped where the grammar left them as words. */
const RESERVED_BEFORE_COMMAND = new Set([
  "{",
  "!",
  "if",
  "then",
  "else",
  "elif",
  "do",
  "while",
  "until",
]);
/** Reserved words after which no command follows directly. */
const RESERVED_OTHER = new Set([
  "}",
  "fi",
  "done",
  "esac",
  "in",
  "for",
  "select",
  "case",
  "function",
  "[[",
  "]]",
]);

/** Inline-code interpreters whose code is not bash. */
interface InterpreterSpec extends OptionSpec {
  /** Short options whose value (attached or next) is inline code. */
  code: string;
  /** Long options whose value is inline code. */
  codeLong?: readonly string[];
  /** Options that name the program another way (`python -m mod`, `php -f file`). */
  program?: string;
  /** Options that print something and exit. */
  exits?: string;
}

const PYTHON: InterpreterSpec = {
  code: "c",
  short: "WXQm",
  long: ["check-hash-based-pycs"],
  program: "-m",
  exits: "-V -h -? --version --help",
};
const NODE: InterpreterSpec = {
  code: "ep",
  codeLong: ["eval", "print"],
  short: "r",
  long: ["require", "import", "loader", "experimental-loader", "input-type", "conditions"],
  program: "--test --run --check -c",
  exits: "-v -h --version --help",
};
const PERL: InterpreterSpec = {
  code: "eE",
  short: "I",
  attached: "iMmFCxdDV",
  exits: "-v -V -h",
};
const VIM: InterpreterSpec = {
  code: "cSs",
  codeLong: ["cmd"],
  short: "iTuUrtq",
  exits: "--version -h --help",
};
const INTERPRETERS: Record<string, InterpreterSpec> = {
  python: PYTHON,
  python2: PYTHON,
  python3: PYTHON,
  pypy: PYTHON,
  pypy3: PYTHON,
  node: NODE,
  nodejs: NODE,
  perl: PERL,
  ruby: { code: "e", short: "IrCE", attached: "FKTWx", exits: "-v -h --version --help" },
  php: { code: "rRBE", short: "cdzt", program: "-f -F", exits: "-v -h -i -m" },
  lua: { code: "e", short: "l", exits: "-v" },
  luajit: { code: "e", short: "lbj", exits: "-v" },
  rscript: { code: "e", exits: "--version --help" },
  r: { code: "e", short: "f", program: "-f --file", exits: "--version --help" },
  osascript: { code: "e", short: "ls" },
  fish: {
    code: "cC",
    codeLong: ["command", "init-command"],
    short: "do",
    long: ["debug", "debug-output", "profile", "profile-startup", "features"],
    exits: "-v -h --version --help",
  },
  csh: { code: "c", exits: "--version --help" },
  tcsh: { code: "c", exits: "--version --help" },
  expect: { code: "c", short: "fD", program: "-f" },
  tclsh: { code: "" },
  wish: { code: "" },
  vim: VIM,
  vi: VIM,
  nvim: VIM,
  ex: VIM,
  view: VIM,
};

/** Editors take files, not programs: they never read code from standard input. */
const NO_STDIN_PROGRAM = new Set(["vim", "vi", "nvim", "ex", "view"]);

// ---------------------------------------------------------------------------------------------
// The collector

/** How the command at hand gets its arguments and standard input. */
interface RunEnv {
  script: Script;
  /** The command node whose redirections feed standard input; null when input is unknown. */
  stdin: SyntaxNode | null;
  /** Set when more words are appended at run time (`xargs`): the reason. */
  openEnded: string | null;
  /** A substring replaced at run time (`{}` of `find -exec`, `xargs -I R`), and the reason. */
  placeholder: { text: string; reason: string } | null;
  nesting: number;
}

/**
 * Where the command word of a wrapper is: `keyword` when bash would still recognise reserved
 * words there (the start of a command, or after `time`, `coproc`, `!`, `then`...).
 */
type Next = { args: readonly Arg[]; index: number; env: RunEnv; keyword?: boolean } | null;

class NameCollector {
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

  result(): ExtractResult {
    if (this.#unknown !== null) return { unknown: this.#unknown, names: this.#names };
    return {
      names: this.#names,
      functions: this.#functions,
      reassignsPath: this.#reassignsPath,
    };
  }

  /**
   * Records a name; a word node already recorded is skipped, since a command carrying stray
   * redirection words is read twice.
   */
  #pushName(name: string, node: SyntaxNode | null): void {
    if (node !== null) {
      let ids = this.#recorded.get(node.tree);
      if (ids === undefined) this.#recorded.set(node.tree, ids = new Set());
      if (ids.has(node.id)) return;
      ids.add(node.id);
    }
    this.#names.push(name);
  }

  #fail(reason: string): null {
    this.#unknown ??= reason;
    return null;
  }

  /** Reads one parsed script: its suspect spots, then every node that can run something. */
  walk(root: SyntaxNode, script: Script, nesting: number): void {
    if (/(?<![\w${])PATH(?!\w)|\$\{PATH:?=/.test(script.text)) this.#reassignsPath = true;
    this.#suspectSpots(root, script);
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
            this.#fail(
              "a word the grammar reads as a file descriptor, which bash runs as a command",
            );
          } else if (strayWords(node).length > 0) this.#strayWords(node, script, nesting);
          break;
        }
        case "test_command": {
          // `[[x` is a word to bash: the bracket opens a test only before a blank.
          const start = node.startIndex - script.offset;
          const open = script.text.startsWith("[[", start) ? 2 : 1;
          if (script.text[start] === "[" && !endsWord(script.text, start + open)) {
            this.#fail("a [ not followed by a blank, which bash reads as part of a command name");
          }
          break;
        }
        case "negated_command":
          // `!x` without a blank is a word to bash, not a negation.
          if (!endsWord(script.text, node.startIndex - script.offset + 1)) {
            this.#fail("a ! not followed by a blank, which bash reads as part of a command name");
          }
          break;
        case "compound_statement":
          // `{}` or `{ls; }`: without a blank after it, `{` is a word to bash, not a group.
          if (!endsWord(script.text, node.startIndex - script.offset + 1)) {
            this.#fail("a { not followed by a blank, which bash reads as part of a command name");
          }
          break;
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

  /**
   * Checks the spots where tree-sitter-bash and bash may read the text differently (found
   * with differential tests against bash), and fails closed where they do:
   * - a backslash escape outside every token: the grammar took `\ ` or `\<tab>` for a blank,
   *   bash keeps it in a word (`\ rm` runs " rm");
   * - a line continuation the grammar does not join like bash (`r\<newline>m` runs rm), or one
   *   inside a node that bash reads as a single word;
   * - a line break right before a backslash: the grammar may carry the command on across it
   *   (`ls<newline>\rm x` is one command to it, two to bash);
   * - a carriage return outside quotes: a word character to bash, a blank to the grammar;
   * - `$ name` read as an expansion, `#` read as a comment inside a word.
   */
  #suspectSpots(root: SyntaxNode, script: Script): void {
    const text = script.text;
    if (!/[\\\r#]|\$\s/.test(text)) return;
    const at = (i: number) => root.descendantForIndex(i + script.offset, i + script.offset + 1);
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      let problem: string | null = null;
      if (c === "\\") {
        if (text[i + 1] !== "\n") {
          if (!isToken(at(i))) problem = "a backslash between words, which bash keeps in a word";
          i++;
        } else {
          const node = at(i);
          const after = text[i + 2] ?? " ";
          const wordBefore = !/\s/.test(text[i - 1] ?? " ") || text[i - 2] === "\\";
          const joins = wordBefore && !/\s/.test(after);
          if (!isToken(node) && (joins || WORD_NODES.includes(node?.type ?? ""))) {
            problem = "a line continuation that bash and the grammar join differently";
          }
          i++;
        }
      } else if (c === "\n" && /^\n[ \t]*\\/.test(text.slice(i, i + 80))) {
        const node = at(i);
        const carried = node !== null &&
          (isToken(node) ? node.type === "word" : SIMPLE_COMMANDS.includes(node.type));
        if (carried) problem = "a line break before a backslash that the grammar carries on";
      } else if (c === "\r") {
        if (!isToken(at(i))) {
          problem = "a carriage return between words, which bash keeps in a word";
        }
      } else if (c === "$" && /\s/.test(text[i + 1] ?? "")) {
        if (at(i)?.parent?.type === "simple_expansion") {
          problem = "a $ before a blank, which bash reads as a plain character";
        }
      } else if (c === "#" && i > 0 && !endsWord(text, i - 1)) {
        if (at(i)?.type === "comment") problem = "a # inside a word, which bash keeps in the word";
      }
      if (problem !== null) {
        this.#fail(problem);
        return;
      }
    }
  }

  /** Parses and walks a script handed to a shell or to a program that runs it with `sh -c`. */
  #script(text: string, what: string, nesting: number): void {
    if (nesting >= MAX_NESTING) {
      this.#fail(`${what} is nested too deeply`);
      return;
    }
    let tree;
    try {
      tree = this.#parser.parse(text, { deadline: this.#deadline });
    } catch (error) {
      if (!(error instanceof BashParseError)) throw error;
      this.#fail(`${what} could not be parsed: ${error.message}`);
      return;
    }
    try {
      if (tree.rootNode.hasError) this.#fail(`${what} could not be parsed as bash`);
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
    else this.#fail(`a function name contains ${word.dynamic}`);
  }

  #variableAssignment(node: SyntaxNode, script: Script, nesting: number): void {
    // Arithmetic assignments (`for ((i = 0; ...))`) may have blanks around the name.
    const name = (/^[^=]*?(?=\+?=)/.exec(node.text)?.[0] ?? "").trim();
    // The grammar accepts names bash does not (`1x=`, `é=`): to bash the word is a command.
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\[|$)/.test(name)) {
      this.#fail("a word the grammar reads as an assignment, which bash runs as a command");
      return;
    }
    if (!COMMAND_VARIABLES.has(name) && !STARTUP_VARIABLES.has(name)) return;
    const value = node.childForFieldName("value");
    this.#assignment(
      name,
      value === null ? staticWord("") : { node: value, script },
      nesting,
    );
  }

  /** Checks an environment assignment, from the grammar or from `env`/`sudo` arguments. */
  #assignment(name: string, value: Arg, nesting: number): void {
    if (name === "PATH") this.#reassignsPath = true;
    if (STARTUP_VARIABLES.has(name)) {
      this.#fail(`${name} makes a shell run a file first`);
      return;
    }
    if (!COMMAND_VARIABLES.has(name)) return;
    const word = resolve(value);
    if ("dynamic" in word) {
      this.#fail(`${name} holds a command line and its value contains ${word.dynamic}`);
      return;
    }
    if (word.value.trim() !== "") this.#script(word.value, `the command line in ${name}`, nesting);
  }

  /** A command name: recorded at once when plain, else its command is read in full. */
  #commandName(node: SyntaxNode, script: Script, nesting: number): void {
    const text = node.text;
    if (PLAIN_NAME.test(text)) {
      if (
        endsWord(script.text, node.startIndex + text.length - script.offset) &&
        !RESERVED_BEFORE_COMMAND.has(text) && !RESERVED_OTHER.has(text) &&
        !isHandled(basename(text).toLowerCase())
      ) {
        this.#pushName(text, node);
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
      if (type.endsWith("redirect") || type === "comment") continue;
      // `bash 0<file`: the grammar reads the descriptor as an argument.
      if (
        (type === "number" || type === "word") && /^\d+$/.test(child.text) &&
        /[<>]/.test(script.text[child.endIndex - script.offset] ?? "")
      ) continue;
      args.push({ node: child, script });
    }
    if (!named) return;
    for (const redirect of statement?.childrenForFieldName("redirect") ?? []) {
      if (redirect !== null) stray = stray.concat(strayWords(redirect));
    }
    if (stray.length > 0) {
      // Words the grammar hung on a redirection are command words to bash, in source order.
      args.push(...stray.map((word) => ({ node: word, script })));
      args.sort((a, b) => ("node" in a && "node" in b ? a.node.startIndex - b.node.startIndex : 0));
      prefixed ||= "node" in args[0] && args[0].node.type !== "command_name";
    }
    // After an assignment or a redirection a reserved word is an ordinary name to bash.
    this.#run(args, 0, !prefixed, {
      script,
      stdin: node,
      openEnded: null,
      placeholder: null,
      nesting,
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
      this.#fail("words after a redirection that the grammar attaches to it");
      return;
    }
    const body = parent.childForFieldName("body");
    if (body !== null && body.type === "command") {
      this.#command(body, script, nesting, parent);
      return;
    }
    if (body !== null) {
      this.#fail("words after the redirection of a compound command");
      return;
    }
    let words: SyntaxNode[] = [];
    for (const other of parent.childrenForFieldName("redirect")) {
      if (other !== null) words = words.concat(strayWords(other));
    }
    words.sort((a, b) => a.startIndex - b.startIndex);
    const env = { script, stdin: null, openEnded: null, placeholder: null, nesting };
    this.#run(words.map((node) => ({ node, script })), 0, false, env);
  }

  /** Follows a command word and the wrappers it names, iteratively. */
  #run(args: readonly Arg[], index: number, keyword: boolean, env: RunEnv): void {
    let next: Next = { args, index, env, keyword };
    while (next !== null) {
      if (next.env.nesting >= MAX_NESTING) {
        this.#fail("wrappers are nested too deeply");
        return;
      }
      next = this.#commandWord(next.args, next.index, next.keyword === true, next.env);
    }
  }

  #resolveIn(arg: Arg, env: RunEnv): Word {
    const word = resolve(arg);
    const holder = env.placeholder;
    if (holder !== null && "value" in word && word.value.includes(holder.text)) {
      return { dynamic: holder.reason, splits: true };
    }
    return word;
  }

  #commandWord(args: readonly Arg[], index: number, keyword: boolean, env: RunEnv): Next {
    if (index >= args.length) {
      return env.openEnded === null ? null : this.#fail(env.openEnded);
    }
    const arg = args[index];
    const word = this.#resolveIn(arg, env);
    const problem = wordProblem(word, "the command name");
    if (problem !== null || !("value" in word)) return this.#fail(problem ?? "");
    const name = word.value;
    // The grammar does not know `time { ...; }` or `coproc NAME { ...; }`: it leaves the
    // reserved words as plain words, which bash would not run as commands.
    const reserved = keyword && "node" in arg && arg.node.text === name;
    if (reserved && RESERVED_BEFORE_COMMAND.has(name)) {
      return { args, index: index + 1, env: { ...env, nesting: env.nesting + 1 }, keyword: true };
    }
    if (reserved && RESERVED_OTHER.has(name)) return null;
    this.#pushName(name, "node" in arg ? arg.node : null);
    const base = basename(name).toLowerCase();
    const rest = index + 1;
    const handler = this.#handler(base);
    if (handler === null) return null;
    // Input appended to an argument-reading program could add `-c`, `-exec` or a command; only
    // shells given `-c SCRIPT` and wrappers that name their command take it as plain arguments
    // (their handlers fail closed when the command or script would come from that input).
    const takesAppended = BASH_SHELLS.has(base) || base === "env" || base === "xargs" ||
      Object.hasOwn(WRAPPERS, base);
    if (env.openEnded !== null && !takesAppended) {
      return this.#fail(`${env.openEnded} (${base} reads it)`);
    }
    if (reserved && name === "time") {
      // The `time` keyword takes only `-p`; anything else starting with `-` is the command.
      let i = rest;
      for (const option of ["-p", "--"]) {
        const word = args[i] === undefined ? null : this.#resolveIn(args[i], env);
        if (word !== null && "value" in word && word.value === option) i++;
      }
      return { args, index: i, env: { ...env, nesting: env.nesting + 1 }, keyword: true };
    }
    const next = handler(args, rest, env);
    // `coproc` is a reserved word itself: a group may follow.
    if (next !== null && reserved && name === "coproc") next.keyword = true;
    return next;
  }

  /** The reader of a command's arguments when they can name or contain other commands. */
  #handler(base: string): ((args: readonly Arg[], start: number, env: RunEnv) => Next) | null {
    if (!isHandled(base)) return null;
    const codeRunner = Object.hasOwn(CODE_RUNNERS, base) ? CODE_RUNNERS[base] : undefined;
    if (codeRunner !== undefined) {
      return (args, start, env) => this.#codeRunner(base, args, start, env);
    }
    if (BASH_SHELLS.has(base)) return (args, start, env) => this.#shell(base, args, start, env);
    const wrapper = Object.hasOwn(WRAPPERS, base) ? WRAPPERS[base] : undefined;
    if (wrapper !== undefined) {
      return (args, start, env) => this.#wrapper(base, wrapper, args, start, env);
    }
    const interpreter = (Object.hasOwn(INTERPRETERS, base) ? INTERPRETERS[base] : undefined) ??
      (/^(python|pypy)[\d.]*$/.test(base) ? PYTHON : undefined);
    if (interpreter !== undefined) {
      return (args, start, env) => this.#interpreter(base, interpreter, args, start, env);
    }
    switch (base) {
      case "env":
        return (args, start, env) => this.#env(args, start, env);
      case "xargs":
        return (args, start, env) => this.#xargs(args, start, env);
      case "find":
        return (args, start, env) => this.#find(args, start, env);
      case "watch":
        return (args, start, env) => this.#watch(args, start, env);
      case "coproc":
        return (args, start, env) => this.#coproc(args, start, env);
      case "trap":
        return (args, start, env) => this.#trap(args, start, env);
      case "git":
        return (args, start, env) => this.#git(args, start, env);
      case "awk":
      case "gawk":
      case "mawk":
      case "nawk":
        return (args, start, env) => this.#awk(base, args, start, env);
      case "sed":
      case "gsed":
        return (args, start, env) => this.#sed(base, args, start, env);
      case "ssh":
        return (args, start, env) => this.#ssh(args, start, env);
      case "su":
      case "runuser":
        return (args, start, env) => this.#su(base, args, start, env);
      case "script":
        return (args, start, env) => this.#scriptCommand(args, start, env);
      case "rsync":
      case "tar":
      case "bsdtar":
      case "gtar":
        return (args, start, env) => this.#commandOptions(base, args, start, env);
      case "deno":
      case "bun":
        return (args, start, env) => this.#jsRuntime(base, args, start, env);
      case "pwsh":
      case "powershell":
        return (args, start, env) => this.#powershell(base, args, start, env);
      case "gdb":
        return (args, start, env) => this.#gdb(args, start, env);
    }
    return null;
  }

  #codeRunner(base: string, args: readonly Arg[], start: number, env: RunEnv): Next {
    const has = (test: (value: string) => boolean) => this.#anyWord(args, start, env, test);
    if (base === "alias" && !has((v) => v.includes("="))) return null;
    if (base === "hash" && !has((v) => /^-\w*p/.test(v))) return null;
    if (base === "enable" && !has((v) => /^-\w*f/.test(v))) return null;
    return this.#fail(CODE_RUNNERS[base]);
  }

  #gdb(args: readonly Arg[], start: number, env: RunEnv): Next {
    const commands = /^--?(ex|iex|eval-command|init-eval-command|x|ix|command|init-command)(=|$)/;
    if (this.#anyWord(args, start, env, (v) => commands.test(v))) {
      return this.#fail("gdb runs debugger commands, which can run programs");
    }
    return null;
  }

  #anyWord(
    args: readonly Arg[],
    start: number,
    env: RunEnv,
    test: (value: string) => boolean,
  ): boolean {
    for (let i = start; i < args.length; i++) {
      const word = this.#resolveIn(args[i], env);
      if (!("value" in word) || test(word.value)) return true;
    }
    return false;
  }

  #scriptArg(arg: Arg | undefined, what: string, env: RunEnv): null {
    if (arg === undefined) {
      return this.#fail(env.openEnded ?? `${what} is missing; it may be supplied at run time`);
    }
    const word = this.#resolveIn(arg, env);
    if ("dynamic" in word) {
      return this.#fail(`${what} is not a static string: it contains ${word.dynamic}`);
    }
    const problem = wordProblem(word, what);
    if (problem !== null) return this.#fail(problem);
    this.#script(word.value, what, env.nesting);
    return null;
  }

  /** A program reading a script from standard input: here-documents are read, else unknown. */
  #stdinScript(who: string, env: RunEnv, parse: boolean): null {
    const what = `${who} reads its script from standard input`;
    const node = env.stdin;
    if (node === null) return this.#fail(`${what}, which the policy cannot see`);
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
    const texts: string[] = [];
    for (const redirect of redirects) {
      const first = redirect.firstChild;
      const descriptor = first !== null && first.type === "file_descriptor" ? first.text : "0";
      if (descriptor !== "0") continue;
      if (redirect.type === "heredoc_redirect") {
        const text = this.#heredocText(redirect);
        if (text === null) return null;
        texts.push(text);
      } else if (redirect.type === "herestring_redirect") {
        const value = redirect.lastNamedChild;
        const word = value === null ? staticWord("") : resolve({ node: value, script: env.script });
        if ("dynamic" in word) return this.#fail(`${what}, a here-string with ${word.dynamic}`);
        texts.push(`${word.value}\n`);
      } else if (redirect.type === "file_redirect") {
        const operator = redirect.children.find((c) => c !== null && !c.isNamed)?.type ?? "";
        if (operator.startsWith("<")) {
          return this.#fail(`${what}, redirected from a file the policy cannot see`);
        }
      }
    }
    if (texts.length === 0) {
      return this.#fail(`${what} (a pipe or the session's input), which the policy cannot see`);
    }
    if (!parse) return this.#fail(`${what} (a here-document or here-string), which is not bash`);
    for (const text of texts) this.#script(text, `the here-document fed to ${who}`, env.nesting);
    return null;
  }

  #heredocText(redirect: SyntaxNode): string | null {
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
        return this.#fail(
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

  #shell(name: string, args: readonly Arg[], start: number, env: RunEnv): Next {
    let command = false;
    let stdin = false;
    let i = start;
    for (; i < args.length; i++) {
      const word = this.#resolveIn(args[i], env);
      // A quoted expansion is one word: the operand (script or file), reported below.
      if ("dynamic" in word && !word.splits) break;
      const problem = wordProblem(word, `an argument of ${name}`);
      if (problem !== null || !("value" in word)) return this.#fail(problem ?? "");
      const text = word.value;
      if (text === "--" || text === "-") {
        i++;
        break;
      }
      if (text.startsWith("--")) {
        if (text === "--rcfile" || text === "--init-file") i++;
        continue;
      }
      if (text.length < 2 || (text[0] !== "-" && text[0] !== "+")) break;
      for (const letter of text.slice(1)) {
        if (letter === "c") command = true;
        else if (letter === "s" || letter === "i") stdin = true;
        else if (letter === "o" || letter === "O") i++;
      }
    }
    if (command) return this.#scriptArg(args[i], `the script passed to ${name} -c`, env);
    if (stdin || i >= args.length) {
      if (env.openEnded !== null) return this.#fail(env.openEnded);
      return this.#stdinScript(name, env, true);
    }
    // `bash file`: the script file runs like `./file`, so its name is checked as a command.
    const word = this.#resolveIn(args[i], env);
    const problem = wordProblem(word, `the script file run by ${name}`);
    if (problem !== null || !("value" in word)) return this.#fail(problem ?? "");
    if (STDIN_FILES.test(word.value)) return this.#stdinScript(name, env, true);
    if (DEVICE_FILES.test(word.value)) {
      return this.#fail(`${name} reads its script from ${word.value}, which the policy cannot see`);
    }
    this.#names.push(word.value);
    return null;
  }

  #wrapper(
    name: string,
    spec: WrapperSpec,
    args: readonly Arg[],
    start: number,
    env: RunEnv,
  ): Next {
    const scan = scanOptions(args, start, spec, name);
    if ("unknown" in scan) return this.#fail(scan.unknown);
    for (const option of scan.options) {
      if (spec.scripts?.split(" ").includes(option.name)) {
        this.#scriptArg(option.value, `the command given to ${name} ${option.name}`, env);
      }
    }
    if (NO_COMMAND.has(name)) return null;
    if (spec.queries !== undefined && hasOption(scan.options, spec.queries)) return null;
    let k = 0;
    const operands = scan.operands;
    if (spec.assignments) {
      while (k < operands.length) {
        const word = this.#resolveIn(args[operands[k]], env);
        if (!("value" in word)) break;
        const match = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(word.value);
        if (match === null) break;
        this.#assignment(match[1], staticWord(word.value.slice(match[0].length)), env.nesting);
        k++;
      }
    }
    k += spec.operands ?? 0;
    if (k > operands.length) return env.openEnded === null ? null : this.#fail(env.openEnded);
    if (name === "flock" && k < operands.length) {
      const word = this.#resolveIn(args[operands[k]], env);
      if ("value" in word && (word.value === "-c" || word.value === "--command")) {
        return this.#scriptArg(args[operands[k] + 1], "the command given to flock -c", env);
      }
    }
    if (k >= operands.length) {
      if (env.openEnded !== null) return this.#fail(env.openEnded);
      if (spec.bareShell || (spec.shell !== undefined && hasOption(scan.options, spec.shell))) {
        return this.#stdinScript(`the shell started by ${name}`, env, true);
      }
      return null;
    }
    return { args, index: operands[k], env: { ...env, nesting: env.nesting + 1 } };
  }

  #env(args: readonly Arg[], start: number, env: RunEnv): Next {
    let list = args;
    let i = start;
    while (i < list.length) {
      const word = this.#resolveIn(list[i], env);
      const problem = wordProblem(word, "an argument of env");
      if (problem !== null || !("value" in word)) return this.#fail(problem ?? "");
      const text = word.value;
      if (text === "--") {
        i++;
        break;
      }
      if (text === "-") {
        i++; // the same as -i
        continue;
      }
      // undefined: no -S here; null: the -S string was refused (reason recorded).
      let split: string | null | undefined;
      if (text.startsWith("--")) {
        const eq = text.indexOf("=");
        const option = text.slice(2, eq < 0 ? undefined : eq);
        const takesValue = ["unset", "chdir", "split-string"].find((n) => n.startsWith(option));
        if (takesValue !== undefined && option.length > 0) {
          const value = eq >= 0 ? staticWord(text.slice(eq + 1)) : list[i + 1];
          if (takesValue === "split-string") split = this.#envSplitValue(value, env);
          if (eq < 0) i++;
        }
      } else if (text.length > 1 && text[0] === "-") {
        for (let k = 1; k < text.length; k++) {
          const letter = text[k];
          if (!"uCSP".includes(letter)) continue;
          const attached = text.slice(k + 1);
          const value = attached.length > 0 ? staticWord(attached) : list[i + 1];
          if (attached.length === 0) i++;
          if (letter === "S") split = this.#envSplitValue(value, env);
          if (letter === "P") this.#reassignsPath = true;
          break;
        }
      } else {
        const match = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(text);
        if (match === null) break;
        this.#assignment(match[1], staticWord(text.slice(match[0].length)), env.nesting);
      }
      i++;
      if (split === null) return null;
      if (split !== undefined) {
        const words = splitEnvString(split);
        if (words === null) return this.#fail("env -S has unbalanced quotes");
        list = [...words.map(staticWord), ...list.slice(i)];
        i = 0;
      }
    }
    if (i >= list.length) return env.openEnded === null ? null : this.#fail(env.openEnded);
    return { args: list, index: i, env: { ...env, nesting: env.nesting + 1 } };
  }

  #envSplitValue(value: Arg | undefined, env: RunEnv): string | null {
    if (value === undefined) return "";
    const word = this.#resolveIn(value, env);
    if ("dynamic" in word) {
      this.#fail(`the string given to env -S contains ${word.dynamic}`);
      return null;
    }
    if (/[\\$]/.test(word.value)) {
      this.#fail("the string given to env -S uses escapes or variables");
      return null;
    }
    return word.value;
  }

  #xargs(args: readonly Arg[], start: number, env: RunEnv): Next {
    const scan = scanOptions(args, start, {
      short: "aEdILnPs",
      attached: "eil",
      long: [
        "arg-file",
        "delimiter",
        "max-args",
        "max-chars",
        "max-procs",
        "process-slot-var",
      ],
    }, "xargs");
    if ("unknown" in scan) return this.#fail(scan.unknown);
    let replace: string | null = null;
    for (const option of scan.options) {
      if (option.name === "-I" || option.name === "-i" || option.name.startsWith("--replace")) {
        const word = option.value === undefined
          ? staticWord("")
          : this.#resolveIn(option.value, env);
        if (!("value" in word)) {
          return this.#fail(`the xargs replace string contains ${word.dynamic}`);
        }
        replace = word.value === "" && option.name !== "-I" ? "{}" : word.value;
      }
    }
    const inner: RunEnv = {
      ...env,
      stdin: null,
      nesting: env.nesting + 1,
      openEnded: replace === null
        ? "xargs appends its input as arguments, so the command may come from input"
        : null,
      placeholder: replace === null || replace === ""
        ? env.placeholder
        : { text: replace, reason: `${replace}, which xargs replaces with input` },
    };
    if (scan.operands.length === 0) {
      this.#names.push("echo");
      return null;
    }
    return { args, index: scan.operands[0], env: inner };
  }

  #find(args: readonly Arg[], start: number, env: RunEnv): Next {
    let pendingDynamic = false;
    for (let i = start; i < args.length; i++) {
      const word = this.#resolveIn(args[i], env);
      if (!("value" in word)) {
        if (word.splits) return this.#fail(`an argument of find contains ${word.dynamic}`);
        pendingDynamic = true;
        continue;
      }
      const text = word.value;
      if (text === ";" || text === "+") {
        if (pendingDynamic) {
          return this.#fail("an argument of find built at run time could start an -exec action");
        }
        continue;
      }
      if (!/^-(exec|execdir|ok|okdir)$/.test(text)) continue;
      let end = i + 1;
      for (; end < args.length; end++) {
        const part = this.#resolveIn(args[end], env);
        if ("value" in part && (part.value === ";" || part.value === "+")) break;
      }
      const inner: RunEnv = {
        ...env,
        stdin: null,
        nesting: env.nesting + 1,
        placeholder: { text: "{}", reason: "{}, which find replaces with file names" },
      };
      this.#run(args.slice(i + 1, end), 0, false, inner);
      i = end;
    }
    return null;
  }

  #watch(args: readonly Arg[], start: number, env: RunEnv): Next {
    const scan = scanOptions(args, start, {
      short: "nq",
      attached: "d",
      long: ["interval", "equexit", "differences"],
    }, "watch");
    if ("unknown" in scan) return this.#fail(scan.unknown);
    if (scan.operands.length === 0) return null;
    if (hasOption(scan.options, "-x --exec")) {
      return { args, index: scan.operands[0], env: { ...env, nesting: env.nesting + 1 } };
    }
    return this.#joinedScript(args, scan.operands, "the command run by watch", env);
  }

  /** Words joined with spaces and run with `sh -c` (`watch`, `ssh`, `git submodule foreach`). */
  #joinedScript(
    args: readonly Arg[],
    operands: readonly number[],
    what: string,
    env: RunEnv,
  ): null {
    const parts: string[] = [];
    for (const index of operands) {
      const word = this.#resolveIn(args[index], env);
      if ("dynamic" in word) return this.#fail(`${what} contains ${word.dynamic}`);
      parts.push(word.value);
    }
    this.#script(parts.join(" "), what, env.nesting);
    return null;
  }

  #coproc(args: readonly Arg[], start: number, env: RunEnv): Next {
    // `coproc NAME { ...; }` is not in the grammar: it reads `NAME { cmd` as arguments and the
    // group's later commands as separate commands, which the walk checks anyway.
    if (args[start + 1] === undefined) return { args, index: start, env };
    const second = resolve(args[start + 1]);
    if ("value" in second && second.value === "{") return { args, index: start + 2, env };
    if (!("value" in second) || /^[{(]/.test(second.value)) {
      return this.#fail("coproc with a name and a compound command, which the grammar misreads");
    }
    return { args, index: start, env };
  }

  #trap(args: readonly Arg[], start: number, env: RunEnv): Next {
    const scan = scanOptions(args, start, {}, "trap");
    if ("unknown" in scan) return this.#fail(scan.unknown);
    if (scan.operands.length < 2) return null;
    const action = this.#resolveIn(args[scan.operands[0]], env);
    if ("value" in action && action.value === "-") return null;
    return this.#scriptArg(args[scan.operands[0]], "the action given to trap", env);
  }

  #git(args: readonly Arg[], start: number, env: RunEnv): Next {
    let i = start;
    for (; i < args.length; i++) {
      const word = this.#resolveIn(args[i], env);
      const problem = wordProblem(word, "an argument of git before its subcommand");
      if (problem !== null || !("value" in word)) return this.#fail(problem ?? "");
      const text = word.value;
      if (!text.startsWith("-")) break;
      if (text === "-c" || text === "--config-env") {
        const value = args[i + 1];
        i++;
        if (value === undefined) return null;
        const pair = this.#resolveIn(value, env);
        if (!("value" in pair)) return this.#fail(`a git -c setting contains ${pair.dynamic}`);
        this.#gitSetting(pair.value, text === "--config-env", env);
      } else if (text.startsWith("-c") && text.length > 2) {
        this.#gitSetting(text.slice(2), false, env);
      } else if (text.startsWith("--config-env=")) {
        this.#gitSetting(text.slice("--config-env=".length), true, env);
      } else if (text.startsWith("--exec-path=")) {
        return this.#fail("git --exec-path runs git subcommands from another directory");
      } else if (/^-[C]$|^--(git-dir|work-tree|namespace)$/.test(text)) i++;
    }
    if (i >= args.length) return null;
    const sub = this.#resolveIn(args[i], env);
    if (!("value" in sub)) return null;
    const rest = i + 1;
    switch (sub.value) {
      case "rebase":
        return this.#optionScripts(args, rest, env, "git rebase", ["-x", "--exec"]);
      case "difftool":
        return this.#optionScripts(args, rest, env, "git difftool", ["-x", "--extcmd"]);
      case "filter-branch":
        return this.#optionScripts(args, rest, env, "git filter-branch", [
          "--env-filter",
          "--tree-filter",
          "--index-filter",
          "--parent-filter",
          "--msg-filter",
          "--commit-filter",
          "--tag-name-filter",
        ]);
      case "bisect": {
        const verb = args[rest] === undefined ? null : this.#resolveIn(args[rest], env);
        if (verb !== null && "value" in verb && verb.value === "run") {
          return { args, index: rest + 1, env: { ...env, stdin: null, nesting: env.nesting + 1 } };
        }
        return null;
      }
      case "submodule": {
        for (let k = rest; k < args.length; k++) {
          const verb = this.#resolveIn(args[k], env);
          if ("value" in verb && verb.value === "foreach") {
            const operands: number[] = [];
            let options = true;
            for (let m = k + 1; m < args.length; m++) {
              const part = this.#resolveIn(args[m], env);
              if (options && "value" in part && part.value.startsWith("-")) continue;
              options = false;
              operands.push(m);
            }
            return this.#joinedScript(
              args,
              operands,
              "the command given to git submodule foreach",
              env,
            );
          }
        }
        return null;
      }
      case "config": {
        const operands: number[] = [];
        for (let k = rest; k < args.length; k++) {
          const part = this.#resolveIn(args[k], env);
          if (!("value" in part)) {
            operands.push(k);
            continue;
          }
          if (/^(-f|--file|--blob|--type|--default|--comment|--value)$/.test(part.value)) k++;
          else if (
            !part.value.startsWith("-") && !(operands.length === 0 && part.value === "set")
          ) {
            operands.push(k);
          }
        }
        if (operands.length < 2) return null;
        const key = this.#resolveIn(args[operands[0]], env);
        if (!("value" in key)) return this.#fail(`a git config key contains ${key.dynamic}`);
        if (!gitCommandKey(key.value)) return null;
        const value = this.#resolveIn(args[operands[1]], env);
        if (!("value" in value)) return this.#fail(`a git config value contains ${value.dynamic}`);
        this.#gitSetting(`${key.value}=${value.value}`, false, env);
        return null;
      }
    }
    return null;
  }

  #gitSetting(pair: string, fromEnvironment: boolean, env: RunEnv): void {
    const eq = pair.indexOf("=");
    const key = (eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
    const value = eq < 0 ? "" : pair.slice(eq + 1);
    const kind = gitCommandKey(key);
    if (kind === null) return;
    if (kind === "unknown") {
      this.#fail(`git setting ${key} makes git run files the policy cannot see`);
      return;
    }
    if (fromEnvironment) {
      this.#fail(`git setting ${key} takes a command from an environment variable`);
      return;
    }
    if (kind === "alias" && !value.startsWith("!")) return;
    const command = value.startsWith("!") ? value.slice(1) : value;
    if (command.trim() !== "") {
      this.#script(command, `the command in git setting ${key}`, env.nesting);
    }
  }

  #optionScripts(
    args: readonly Arg[],
    start: number,
    env: RunEnv,
    who: string,
    names: readonly string[],
  ): null {
    for (let i = start; i < args.length; i++) {
      const word = this.#resolveIn(args[i], env);
      if (!("value" in word)) continue;
      const text = word.value;
      for (const name of names) {
        if (text === name) {
          this.#scriptArg(args[i + 1], `the command given to ${who} ${name}`, env);
          i++;
        } else if (text.startsWith(`${name}=`) || (name.length === 2 && text.startsWith(name))) {
          const value = text.slice(name.length + (text[name.length] === "=" ? 1 : 0));
          this.#script(value, `the command given to ${who} ${name}`, env.nesting);
        }
      }
    }
    return null;
  }

  /** `rsync` and `tar`: options whose value is a command line (`-e`, `--to-command`...). */
  #commandOptions(name: string, args: readonly Arg[], start: number, env: RunEnv): null {
    const rsync = name === "rsync";
    const first = args[start] === undefined ? null : this.#resolveIn(args[start], env);
    // Old-style `tar xIf prog file` bundles letters without a dash.
    if (
      !rsync && first !== null && "value" in first && /^[A-Za-z]*[IF][A-Za-z]*$/.test(first.value)
    ) {
      return this.#fail(`${name} ${first.value} names a program to run in old-style options`);
    }
    const scan = scanOptions(
      args,
      start,
      rsync ? RSYNC_OPTIONS : TAR_OPTIONS,
      name,
    );
    if ("unknown" in scan) return this.#fail(scan.unknown);
    const scripts = rsync ? RSYNC_OPTIONS.scripts : TAR_OPTIONS.scripts;
    for (const { name: option, value } of scan.options) {
      if (scripts.includes(option)) {
        this.#scriptArg(value, `the command given to ${name} ${option}`, env);
      } else if (option === "--checkpoint-action" && value !== undefined) {
        const action = this.#resolveIn(value, env);
        if (!("value" in action)) return this.#fail(`a ${name} action contains ${action.dynamic}`);
        if (action.value.startsWith("exec=")) {
          this.#script(
            action.value.slice(5),
            `the command given to ${name} ${option}`,
            env.nesting,
          );
        }
      }
    }
    return null;
  }

  #interpreter(
    name: string,
    spec: InterpreterSpec,
    args: readonly Arg[],
    start: number,
    env: RunEnv,
  ): Next {
    const codeLong = spec.codeLong ?? [];
    const scan = scanOptions(args, start, {
      short: spec.code + (spec.short ?? ""),
      attached: spec.attached,
      long: [...codeLong, ...(spec.long ?? [])],
    }, name);
    if ("unknown" in scan) return this.#fail(scan.unknown);
    for (const option of scan.options) {
      const letter = option.name.length === 2 ? option.name[1] : "";
      if (
        (letter !== "" && spec.code.includes(letter)) ||
        codeLong.includes(option.name.slice(2))
      ) {
        return this.#fail(`${name} ${option.name} runs code that is not bash`);
      }
    }
    if (NO_STDIN_PROGRAM.has(name) && this.#anyWord(args, start, env, (v) => v.startsWith("+"))) {
      return this.#fail(`${name} +command runs editor commands, which can run programs`);
    }
    const program = spec.program === undefined ? false : hasOption(scan.options, spec.program);
    const exits = spec.exits === undefined ? false : hasOption(scan.options, spec.exits);
    if (program || exits || NO_STDIN_PROGRAM.has(name)) return null;
    const first = scan.operands[0];
    if (first !== undefined) {
      const word = this.#resolveIn(args[first], env);
      if (!("value" in word)) return null;
      if (word.value !== "-" && !DEVICE_FILES.test(word.value)) return null;
    }
    if (env.openEnded !== null && first === undefined) return this.#fail(env.openEnded);
    return this.#stdinScript(name, env, false);
  }

  #jsRuntime(name: string, args: readonly Arg[], start: number, env: RunEnv): Next {
    const first = args[start] === undefined ? null : this.#resolveIn(args[start], env);
    if (first === null) {
      return this.#fail(`${name} without arguments reads code from standard input`);
    }
    if (!("value" in first)) return this.#fail(`the ${name} subcommand contains ${first.dynamic}`);
    const sub = first.value;
    if (sub === "eval" || sub === "-e" || sub === "--eval" || sub === "-p" || sub === "--print") {
      return this.#fail(`${name} ${sub} runs inline code that is not bash`);
    }
    if (sub === "repl") return this.#fail(`${name} repl reads code from standard input`);
    return null;
  }

  #powershell(name: string, args: readonly Arg[], start: number, env: RunEnv): Next {
    for (let i = start; i < args.length; i++) {
      const word = this.#resolveIn(args[i], env);
      if (!("value" in word)) return this.#fail(`an argument of ${name} contains ${word.dynamic}`);
      const text = word.value.toLowerCase();
      if (!text.startsWith("-")) return null;
      if (/^-(c|co|com|comm|comma|comman|command|commandwithargs|cwa|e|ec|en\w*)$/.test(text)) {
        return this.#fail(`${name} ${word.value} runs inline code that is not bash`);
      }
      if (/^-f(i|il|ile)?$/.test(text)) return null;
    }
    return this.#stdinScript(name, env, false);
  }

  #awk(name: string, args: readonly Arg[], start: number, env: RunEnv): Next {
    const scan = scanOptions(args, start, {
      short: "FvfEeil",
      long: ["field-separator", "assign", "file", "exec", "source", "include", "load"],
    }, name);
    if ("unknown" in scan) return this.#fail(scan.unknown);
    const programs: Arg[] = [];
    for (const option of scan.options) {
      if (/^(-[fEil]|--(file|exec|include|load))$/.test(option.name)) {
        return this.#fail(`${name} ${option.name} loads program code from a file`);
      }
      if ((option.name === "-e" || option.name === "--source") && option.value !== undefined) {
        programs.push(option.value);
      }
    }
    if (programs.length === 0 && scan.operands.length > 0) programs.push(args[scan.operands[0]]);
    for (const program of programs) {
      const word = this.#resolveIn(program, env);
      if (!("value" in word)) return this.#fail(`the ${name} program contains ${word.dynamic}`);
      if (awkRunsCommands(word.value)) {
        return this.#fail(`the ${name} program can run commands through system() or a pipe`);
      }
    }
    return null;
  }

  #sed(name: string, args: readonly Arg[], start: number, env: RunEnv): Next {
    const scan = scanOptions(args, start, {
      short: "efl",
      attached: "i",
      long: ["expression", "file", "line-length"],
      permute: true,
    }, name);
    if ("unknown" in scan) return this.#fail(scan.unknown);
    if (hasOption(scan.options, "--sandbox")) return null;
    const scripts: Arg[] = [];
    for (const option of scan.options) {
      if (option.name === "-f" || option.name === "--file") {
        return this.#fail(`${name} -f reads a script that may run commands (the e command)`);
      }
      if ((option.name === "-e" || option.name === "--expression") && option.value !== undefined) {
        scripts.push(option.value);
      }
    }
    if (scripts.length === 0 && scan.operands.length > 0) scripts.push(args[scan.operands[0]]);
    for (const script of scripts) {
      const word = this.#resolveIn(script, env);
      if (!("value" in word)) return this.#fail(`the ${name} script contains ${word.dynamic}`);
      const verdict = sedRunsCommands(word.value);
      if (verdict) return this.#fail(`the ${name} script ${verdict}`);
    }
    return null;
  }

  #ssh(args: readonly Arg[], start: number, env: RunEnv): Next {
    const scan = scanOptions(args, start, { short: "BbcDEeFIiJLlmOopQRSWw" }, "ssh");
    if ("unknown" in scan) return this.#fail(scan.unknown);
    let noCommand = false;
    for (const option of scan.options) {
      if (option.name === "-N") noCommand = true;
      if (option.name !== "-o" || option.value === undefined) continue;
      this.#sshOption(option.value, env);
    }
    const host = scan.operands[0];
    if (host === undefined) return null;
    // OpenSSH reads options again after the destination, up to the remote command.
    const after = scanOptions(args, host + 1, { short: "BbcDEeFIiJLlmOopQRSWw" }, "ssh");
    if ("unknown" in after) return this.#fail(after.unknown);
    for (const option of after.options) {
      if (option.name === "-N") noCommand = true;
      if (option.name !== "-o" || option.value === undefined) continue;
      this.#sshOption(option.value, env);
    }
    const command = after.operands;
    if (command.length > 0) {
      return this.#joinedScript(args, command, "the command run by ssh on the remote host", env);
    }
    if (noCommand) return null;
    return this.#stdinScript("the remote shell of ssh", env, true);
  }

  #sshOption(value: Arg, env: RunEnv): void {
    const word = this.#resolveIn(value, env);
    if (!("value" in word)) {
      this.#fail(`an ssh -o option contains ${word.dynamic}`);
      return;
    }
    const match = /^\s*(\w+)\s*(?:=|\s)\s*(.*)$/s.exec(word.value);
    if (match === null) return;
    if (/^(proxycommand|localcommand|knownhostscommand|remotecommand)$/i.test(match[1])) {
      this.#script(match[2], `the ssh ${match[1]} command`, env.nesting);
    }
  }

  #su(name: string, args: readonly Arg[], start: number, env: RunEnv): Next {
    const scan = scanOptions(args, start, {
      short: "cCsgGuw",
      long: [
        "command",
        "session-command",
        "shell",
        "group",
        "supp-group",
        "user",
        "whitelist-environment",
      ],
      permute: true,
    }, name);
    if ("unknown" in scan) return this.#fail(scan.unknown);
    let command: Arg | undefined;
    let user = false;
    for (const option of scan.options) {
      if (/^(-[cC]|--command|--session-command)$/.test(option.name)) command = option.value;
      if (option.name === "-s" || option.name === "--shell") {
        const shell = option.value === undefined ? null : this.#resolveIn(option.value, env);
        if (shell === null || !("value" in shell)) return this.#fail(`the shell given to ${name}`);
        this.#names.push(shell.value);
        if (!BASH_SHELLS.has(basename(shell.value).toLowerCase())) {
          return this.#fail(`${name} runs a shell that does not read bash`);
        }
      }
      if (option.name === "-u" || option.name === "--user") user = true;
    }
    if (command !== undefined) {
      return this.#scriptArg(command, `the command given to ${name} -c`, env);
    }
    if (user && scan.operands.length > 0) {
      return { args, index: scan.operands[0], env: { ...env, nesting: env.nesting + 1 } };
    }
    return this.#stdinScript(`the shell started by ${name}`, env, true);
  }

  #scriptCommand(args: readonly Arg[], start: number, env: RunEnv): Next {
    const scan = scanOptions(args, start, {
      short: "cEIOBTm",
      long: ["command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format"],
      permute: true,
    }, "script");
    if ("unknown" in scan) return this.#fail(scan.unknown);
    const command = scan.options.find((o) => o.name === "-c" || o.name === "--command");
    if (command !== undefined) {
      return this.#scriptArg(command.value, "the command given to script -c", env);
    }
    return this.#stdinScript("the shell started by script", env, true);
  }
}

/**
 * Words the grammar attached to a redirection that bash reads as command words: destinations
 * after the first (`>f -la`), words after a here-document start (`<<EOF -c 'rm x'`).
 */
function strayWords(redirect: SyntaxNode): SyntaxNode[] {
  const type = redirect.type;
  const field = type === "file_redirect" ? "destination" : "argument";
  if (type !== "file_redirect" && type !== "heredoc_redirect") return [];
  const words = redirect.childrenForFieldName(field).filter((n): n is SyntaxNode => n !== null);
  return type === "file_redirect" ? words.slice(1) : words;
}

/** rsync options: those taking a value, and those whose value is a command line. */
const RSYNC_OPTIONS = {
  short: "efTBM",
  long: [
    "rsh",
    "rsync-path",
    "filter",
    "exclude",
    "include",
    "exclude-from",
    "include-from",
    "files-from",
    "temp-dir",
    "compare-dest",
    "copy-dest",
    "link-dest",
    "password-file",
  ],
  permute: true,
  scripts: ["-e", "--rsh", "--rsync-path"],
};

/** tar options: those taking a value, and those whose value is a command line. */
const TAR_OPTIONS = {
  short: "fCIFTXbLgKNVH",
  long: [
    "file",
    "directory",
    "use-compress-program",
    "to-command",
    "info-script",
    "new-volume-script",
    "rsh-command",
    "checkpoint-action",
    "files-from",
    "exclude-from",
    "exclude",
  ],
  permute: true,
  scripts: [
    "-I",
    "-F",
    "--use-compress-program",
    "--to-command",
    "--info-script",
    "--new-volume-script",
    "--rsh-command",
  ],
};

/** Commands read by a handler of their own in {@link NameCollector}. */
const SPECIAL_COMMANDS = new Set([
  "env",
  "xargs",
  "find",
  "watch",
  "coproc",
  "trap",
  "git",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "sed",
  "gsed",
  "ssh",
  "su",
  "runuser",
  "script",
  "rsync",
  "tar",
  "bsdtar",
  "gtar",
  "deno",
  "bun",
  "pwsh",
  "powershell",
  "gdb",
]);

/** Whether a lower-case basename needs more than being recorded: its arguments matter. */
function isHandled(base: string): boolean {
  return SPECIAL_COMMANDS.has(base) || BASH_SHELLS.has(base) ||
    Object.hasOwn(CODE_RUNNERS, base) || Object.hasOwn(WRAPPERS, base) ||
    Object.hasOwn(INTERPRETERS, base) || /^(python|pypy)[\d.]*$/.test(base);
}

/** Which git settings hold commands: "alias", "command", "unknown" (runs files), or null. */
function gitCommandKey(key: string): "alias" | "command" | "unknown" | null {
  const k = key.toLowerCase();
  if (k.startsWith("alias.")) return "alias";
  if (
    /^(core\.(pager|editor|sshcommand|fsmonitor|askpass|gitproxy)|sequence\.editor|diff\.external|diff\..+\.(textconv|command)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|credential\.(.+\.)?helper|gpg\.(.+\.)?program|pager\..+|interactive\.difffilter|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack)|(mergetool|difftool|browser|man)\..+\.(cmd|path)|web\.browser|sendemail\..*(cmd|smtpserver)|submodule\..+\.update|core\.alternaterefscommand)$/
      .test(k)
  ) return "command";
  if (/^(core\.hookspath|include\.path|includeif\..+\.path|init\.templatedir)$/.test(k)) {
    return "unknown";
  }
  return null;
}

/** Splits an `env -S` string (without escapes or variables, which are rejected first). */
function splitEnvString(text: string): string[] | null {
  const words: string[] = [];
  let current: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "\n") {
      if (current !== null) words.push(current);
      current = null;
    } else if (c === "#" && current === null) {
      break;
    } else if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return null;
      current = (current ?? "") + text.slice(i + 1, end);
      i = end;
    } else current = (current ?? "") + c;
  }
  if (current !== null) words.push(current);
  return words;
}

/**
 * Whether an awk program may run commands: `system(...)`, `cmd | getline`, `print | cmd`,
 * `|&`, or `@load`/`@include`. Strings and regular-expression literals are skipped.
 */
function awkRunsCommands(program: string): boolean {
  let code = "";
  let previous = "";
  for (let i = 0; i < program.length; i++) {
    const c = program[i];
    if (c === '"') {
      i++;
      while (i < program.length && program[i] !== '"') i += program[i] === "\\" ? 2 : 1;
      code += '""';
      previous = '"';
      continue;
    }
    if (c === "/" && (previous === "" || /[(,~!{};&|:?\n]/.test(previous))) {
      i++;
      while (i < program.length && program[i] !== "/" && program[i] !== "\n") {
        i += program[i] === "\\" ? 2 : 1;
      }
      code += "//";
      previous = "/";
      continue;
    }
    code += c;
    if (!/\s/.test(c)) previous = c;
  }
  return /\bsystem\s*\(|@load|@include/.test(code) || /\|/.test(code.replaceAll("||", ""));
}

/**
 * Whether a sed script may run commands (GNU `e` command or `s///e` flag): returns why, or
 * null. Scripts this small reader cannot follow are reported too.
 */
function sedRunsCommands(script: string): string | null {
  const n = script.length;
  let i = 0;
  const blanks = () => {
    while (i < n && (script[i] === " " || script[i] === "\t")) i++;
  };
  const toLineEnd = () => {
    while (i < n && script[i] !== "\n") i++;
  };
  const delimited = (delimiter: string): boolean => {
    while (i < n && script[i] !== delimiter) {
      if (script[i] === "\\") i++;
      i++;
    }
    if (i >= n) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (/\d/.test(c)) {
      while (i < n && /[\d~]/.test(script[i])) i++;
    } else if (c === "$") i++;
    else if (c === "/" || c === "\\") {
      const delimiter = c === "\\" ? script[i + 1] : "/";
      i += c === "\\" ? 2 : 1;
      if (delimiter === undefined || !delimited(delimiter)) return false;
      while (i < n && /[IM]/.test(script[i])) i++;
    } else if (c === "+" || c === "~") {
      i++;
      while (i < n && /\d/.test(script[i])) i++;
    }
    return true;
  };
  while (i < n) {
    blanks();
    const c = script[i];
    if (c === undefined) break;
    if (c === "\n" || c === ";" || c === "}") {
      i++;
      continue;
    }
    if (c === "#") {
      toLineEnd();
      continue;
    }
    if (!address()) return "could not be read to check for the e command";
    blanks();
    if (script[i] === ",") {
      i++;
      blanks();
      if (!address()) return "could not be read to check for the e command";
    }
    blanks();
    while (script[i] === "!") {
      i++;
      blanks();
    }
    const command = script[i++];
    switch (command) {
      case "e":
        return "runs commands with the e command";
      case "s": {
        const delimiter = script[i++];
        if (delimiter === undefined || !delimited(delimiter) || !delimited(delimiter)) {
          return "could not be read to check for the e flag";
        }
        while (i < n && /[gpiImMe\d]/.test(script[i])) {
          if (script[i] === "e") return "runs commands with the s///e flag";
          i++;
        }
        if (script[i] === "w") toLineEnd();
        break;
      }
      case "y": {
        const delimiter = script[i++];
        if (delimiter === undefined || !delimited(delimiter) || !delimited(delimiter)) {
          return "could not be read to check for the e command";
        }
        break;
      }
      case "a":
      case "i":
      case "c":
        while (i < n && script[i] !== "\n") i += script[i] === "\\" ? 2 : 1;
        break;
      case ":":
      case "r":
      case "R":
      case "w":
      case "W":
        toLineEnd();
        break;
      case "b":
      case "t":
      case "T":
      case "v":
        while (i < n && script[i] !== "\n" && script[i] !== ";") i++;
        break;
      case "q":
      case "Q":
      case "l":
      case "L":
        blanks();
        while (i < n && /\d/.test(script[i])) i++;
        break;
      case "{":
      case "=":
      case "d":
      case "D":
      case "g":
      case "G":
      case "h":
      case "H":
      case "n":
      case "N":
      case "p":
      case "P":
      case "x":
      case "z":
      case "F":
        break;
      case undefined:
        return null;
      default:
        return "could not be read to check for the e command";
    }
  }
  return null;
}
