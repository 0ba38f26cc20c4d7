import { errorText } from "../../contract/error_text.ts";
import { Language, Parser } from "web-tree-sitter";
import type { Node, Tree } from "web-tree-sitter";
import { BashParseError } from "./bash_parse_error.ts";

/** A node of a bash syntax tree; other modules use this alias, never web-tree-sitter. */
export type SyntaxNode = Node;
/** A bash syntax tree; free it with `delete()` once read. */
export type SyntaxTree = Tree;

/** Largest command the parser accepts: 64 KiB of UTF-8. */
export const MAX_SOURCE_BYTES = 64 * 1024;
/**
 * How long one parse may run before it is abandoned. Ordinary commands parse in well under a
 * millisecond per KiB; some crafted inputs make tree-sitter-bash take seconds or more.
 */
export const DEFAULT_PARSE_TIMEOUT_MS = 200;

/** A little of every construct, parsed once at load. */
const WARM_UP_SCRIPT = [
  `set -eu; X="$(a "b" 'c' \\d)" Y=\`e\` f >g 2>&1 <h | i && j || k &`,
  "if [[ -n ${X:-z} ]]; then for n in {1..3} *.ts; do echo $((n + 1)) $'x'; done; fi",
  'case "$n" in a|b) (l; m) ;; *) { o; } ;; esac; while p; do q <(r) >(s); done',
  "f() { local t=(u v); cat <<EOF",
  "$t ${t[0]}",
  "EOF",
  "}; declare -x W=1; unset W; ! x <<< y # done",
].join("\n");

const GRAMMAR_SPECIFIER = "tree-sitter-bash/tree-sitter-bash.wasm";
const RUNTIME_SPECIFIER = "web-tree-sitter/tree-sitter.wasm";

/** Options of {@link BashParser.load}. */
export interface BashParserOptions {
  /** Path or file URL of `tree-sitter-bash.wasm`. @default resolved from the npm package */
  wasmPath?: string | URL;
  /** Parse time limit in milliseconds. @default {DEFAULT_PARSE_TIMEOUT_MS} */
  parseTimeoutMs?: number;
}

/** Options of {@link BashParser.parse}. */
export interface ParseOptions {
  /**
   * `performance.now()` time after which parsing is abandoned, to share one budget between
   * several parses. @default now plus the parser's time limit
   */
  deadline?: number;
}

// web-tree-sitter keeps one wasm runtime per process and `Parser.init` replaces it, which would
// break parsers already built; so the runtime is started once and shared. A loaded grammar can
// never be unloaded from that runtime either, so each grammar file is loaded once too.
let runtimeReady: Promise<void> | undefined;
const languages = new Map<string, Promise<Language>>();

/** A bash parser (tree-sitter-bash through web-tree-sitter). Close it when done. */
export class BashParser {
  #parser: Parser | null;
  #timeoutMs: number;

  private constructor(parser: Parser, timeoutMs: number) {
    this.#parser = parser;
    this.#timeoutMs = timeoutMs;
  }

  /** Loads the runtime (once per process) and the bash grammar. */
  static async load(options: BashParserOptions = {}): Promise<BashParser> {
    const { wasmPath, parseTimeoutMs = DEFAULT_PARSE_TIMEOUT_MS } = options;
    runtimeReady ??= startRuntime().catch((error) => {
      runtimeReady = undefined;
      throw error;
    });
    await runtimeReady;
    const key = String(wasmPath ?? GRAMMAR_SPECIFIER);
    let loading = languages.get(key);
    if (loading === undefined) {
      const candidates = wasmPath === undefined ? wasmCandidates(GRAMMAR_SPECIFIER) : [wasmPath];
      loading = readWasm(candidates, "the tree-sitter-bash grammar").then((bytes) =>
        Language.load(bytes)
      );
      languages.set(key, loading);
      loading.catch(() => languages.delete(key));
    }
    const language = await loading;
    const parser = new Parser();
    parser.setLanguage(language);
    // The wasm code compiles lazily on first use; warming up here keeps that cost out of the
    // first command's time budget.
    parser.parse(WARM_UP_SCRIPT)?.delete();
    return new BashParser(parser, parseTimeoutMs);
  }

  /** The parse time limit in milliseconds. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /**
   * Parses `source` as bash. The caller owns the tree and must `delete()` it.
   * Throws {@link BashParseError} when the source is too large, the parse runs out of time,
   * or the parser is closed.
   */
  parse(source: string, options: ParseOptions = {}): SyntaxTree {
    const parser = this.#parser;
    if (parser === null) throw new BashParseError("the bash parser is closed");
    // A UTF-16 unit never needs more than 3 UTF-8 bytes, so short sources skip the count.
    if (source.length * 3 > MAX_SOURCE_BYTES) {
      const bytes = utf8Length(source);
      if (bytes > MAX_SOURCE_BYTES) {
        throw new BashParseError(`it is ${bytes} bytes, over the ${MAX_SOURCE_BYTES}-byte limit`);
      }
    }
    const { deadline = performance.now() + this.#timeoutMs } = options;
    const tree = parser.parse(source, null, {
      progressCallback: () => performance.now() > deadline,
    });
    if (tree === null) {
      parser.reset();
      throw new BashParseError(`parsing took longer than the ${this.#timeoutMs} ms limit`);
    }
    return tree;
  }

  /** Frees the parser; idempotent. */
  close(): void {
    this.#parser?.delete();
    this.#parser = null;
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

async function startRuntime(): Promise<void> {
  // Handing the runtime bytes over avoids web-tree-sitter's own lookup next to its script,
  // which does not survive `deno compile`.
  const wasmBinary = await readWasm(
    wasmCandidates(RUNTIME_SPECIFIER),
    "the web-tree-sitter runtime",
  );
  await Parser.init({ wasmBinary } as Parameters<typeof Parser.init>[0]);
}

function wasmCandidates(specifier: string): (string | URL)[] {
  const candidates: (string | URL)[] = [];
  try {
    candidates.push(import.meta.resolve(specifier));
  } catch {
    // Not resolvable as a module path here; the node_modules fallback below still applies.
  }
  candidates.push(new URL(`../../node_modules/${specifier}`, import.meta.url));
  return candidates;
}

async function readWasm(candidates: readonly (string | URL)[], what: string): Promise<Uint8Array> {
  const failures: string[] = [];
  for (const candidate of candidates) {
    const path = typeof candidate === "string" && candidate.startsWith("file:")
      ? new URL(candidate)
      : candidate;
    try {
      return await Deno.readFile(path);
    } catch (error) {
      failures.push(`${String(path)} (${errorText(error)})`);
    }
  }
  throw new Error(
    `Cannot load ${what}: no wasm file could be read from ${
      failures.join(", ")
    }; install the npm packages (deno install) or pass wasmPath`,
  );
}

function utf8Length(source: string): number {
  let bytes = 0;
  for (let i = 0; i < source.length; i++) {
    const unit = source.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
