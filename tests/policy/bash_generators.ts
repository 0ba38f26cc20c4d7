/**
 * Generators of bash-ish text for the randomized command-name tests (the fuzzer and the
 * differential test against the real shells). Every generator is driven by the caller's
 * fast-check seed (tests/seed.ts).
 */
import fc from "fast-check";

/** Commands from the table tests, the starting points of mutation. */
export const CORPUS = [
  "git status",
  "ls | wc -l",
  "FOO=1 make test",
  'echo "rm is a word"',
  "cat <<EOF\nrm\nEOF",
  "true & rm -rf /tmp/x",
  "sleep 1 |& rm x",
  "(rm -rf x)",
  "{ rm -rf x; }",
  "if true; then rm -rf x; fi",
  "case x in x) rm x ;; esac",
  "! rm x",
  "coproc X { rm x; }",
  "sudo -u root -- rm x",
  "timeout -s KILL 5 rm x",
  "echo x | xargs -I{} sh -c 'rm {}'",
  "find . -name x -exec rm {} \\;",
  "eval rm -rf x",
  "a=rm; $a -rf x",
  "rm${IFS}-rf${IFS}x",
  "$'\\x72m' -rf x",
  "$(echo rm) -rf x",
  "`echo rm` -rf x",
  "/bin/r[m] x",
  'echo "rm -rf x" | sh',
  'bash<<<"rm -rf x"',
  "cat <(rm -rf x) >(tee y)",
  "2>&1 </dev/null rm x",
  "env -i -S 'FOO=1 rm -rf x' -C /tmp",
  "echo hi # don't\nrm -rf x",
  "r\\\nm -rf x",
  `python3 -c "import os; os.remove('x')"`,
  `awk 'BEGIN{system("rm x")}'`,
  "git -c alias.x='!rm y' x",
  `sh "$(rm -rf y)" -c '$('`,
  "bash -o pipefail -lc 'ls; rm x' name",
  "sudo bash <<'EOF'\nrm x\nEOF",
  "watch -n 1 'rm x'",
  "ssh -o ProxyCommand='rm x' host ls",
  "f() { rm x; }; f",
  "sed -n '1e rm x' f",
  'for f in *.ts; do wc -l "$f"; done',
  "x=$(( $(rm) + 1 )); [[ -n $(ls) ]]",
];

/** Tokens for bash-ish soup and for mutations. */
export const TOKENS = [
  "rm",
  "ls",
  "echo",
  "bash",
  "sh",
  "zsh",
  "-c",
  "-lc",
  "env",
  "-S",
  "-C",
  "-u",
  "sudo",
  "xargs",
  "-I{}",
  "find",
  "-exec",
  "{}",
  "\\;",
  "+",
  ";",
  ";;",
  "&&",
  "||",
  "|",
  "|&",
  "&",
  "\n",
  "(",
  ")",
  "{",
  "}",
  "$(",
  "`",
  "'",
  '"',
  "\\",
  "$",
  "${",
  "$((",
  "))",
  "<<",
  "<<-",
  "EOF",
  "'EOF'",
  "<<<",
  "<(",
  ">(",
  ">",
  ">>",
  "2>&1",
  "<",
  "#",
  "=",
  "FOO=1",
  "PATH=/x",
  "eval",
  "source",
  ".",
  "*",
  "?",
  "[",
  "]",
  "$'",
  "\\x72",
  '$"',
  "if",
  "then",
  "else",
  "fi",
  "for",
  "in",
  "do",
  "done",
  "while",
  "case",
  "esac",
  "coproc",
  "time",
  "!",
  "function",
  "f()",
  "awk",
  "sed",
  "git",
  "alias.x=!rm",
  "python3",
  "timeout",
  "5",
  "nice",
  "-n",
  "exec",
  "command",
  "builtin",
  "watch",
  "ssh",
  "host",
  "trap",
  "EXIT",
  "x",
  "-",
  "--",
  "[[",
  "]]",
  "((",
  "\t",
  "\\\n",
  "~",
  "=rm",
];
export const SPECIALS = [
  "'",
  '"',
  "\\",
  "\n",
  "$(",
  "`",
  "$",
  "{",
  "}",
  "(",
  ")",
  ";",
  "&",
  "|",
  "#",
  " ",
];

export type Mutation = {
  kind: "insert" | "delete" | "swap" | "duplicate";
  at: number;
  text: string;
};

export function mutate(source: string, mutations: readonly Mutation[]): string {
  let text = source;
  for (const { kind, at, text: insert } of mutations) {
    const i = text.length === 0 ? 0 : at % (text.length + 1);
    if (kind === "insert") text = text.slice(0, i) + insert + text.slice(i);
    else if (kind === "delete") text = text.slice(0, i) + text.slice(i + 1);
    else if (kind === "swap" && i + 1 < text.length) {
      text = text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2);
    } else if (kind === "duplicate") text = text.slice(0, i) + text.slice(i, i + 8) + text.slice(i);
  }
  return text;
}

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom("insert", "delete", "swap", "duplicate"),
  at: fc.nat(),
  text: fc.oneof(fc.constantFrom(...SPECIALS), fc.constantFrom(...TOKENS)),
});

/** Syntactically plausible bash, built from the constructs the checker must follow. */
export const { script: scriptArbitrary } = fc.letrec<{ script: string; word: string }>((tie) => ({
  word: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("rm", "ls", "x", "-rf", "'a b'", '"c d"', "{}", "*.ts", "\\rm", "r''m"),
    tie("script").map((s) => `"$(${s})"`),
    tie("script").map((s) => `<(${s})`),
    tie("script").map((s) => `'${s.replaceAll("'", "'\\''")}'`),
  ),
  script: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.tuple(
      fc.constantFrom("rm", "ls", "git", "echo", "cat"),
      fc.array(tie("word"), { maxLength: 3 }),
    )
      .map(([name, words]) => [name, ...words].join(" ")),
    fc.tuple(
      fc.constantFrom(
        "sudo",
        "env FOO=1",
        "nice -n 5",
        "timeout 5",
        "nohup",
        "exec",
        "command",
        "xargs",
        "time",
        "stdbuf -oL",
        "setsid",
        "busybox",
        "strace -f",
        "doas",
        "builtin",
      ),
      tie("script"),
    ).map(([wrapper, inner]) => `${wrapper} ${inner}`),
    fc.tuple(fc.constantFrom("bash -c", "sh -ec", "zsh -c", "env -S", "watch"), tie("script"))
      .map(([shell, inner]) => `${shell} '${inner.replaceAll("'", "'\\''")}'`),
    fc.tuple(
      tie("script"),
      fc.constantFrom(" | ", " && ", " || ", "; ", " & ", "\n"),
      tie("script"),
    )
      .map(([a, op, b]) => `${a}${op}${b}`),
    tie("script").map((s) => `(${s})`),
    tie("script").map((s) => `{ ${s}; }`),
    tie("script").map((s) => `if true; then ${s}; fi`),
    tie("script").map((s) => `for i in 1 2; do ${s}; done`),
    tie("script").map((s) => `f() { ${s}; }`),
    tie("script").map((s) => `bash <<'EOF'\n${s}\nEOF`),
    tie("script").map((s) => `find . -exec ${s} \\;`),
  ),
}));

/** Line breaks, blanks and backslashes between words: where grammar and bash disagreed most. */
export const spacingArbitrary = fc.array(
  fc.oneof(
    fc.constantFrom("ls", "rm", "x", "-la", "'q'", '"d"', "$v", "`ls`", "$(ls)", "#c", "{", "}"),
    fc.constantFrom("if", "then", "fi", "cat", "<<E", "E", "a=1", "1a=1", ">f", "|", "&&", ";"),
    fc.constantFrom("!", "time", "sudo", "bash", "-c", "[[", "]]", "=", "$"),
    fc.constantFrom("\n", "\n\n", "\\\n", " \\\n", "\\", "\\ ", " ", "\t", "\\\t", "\r\n", "\n\\"),
  ),
  { maxLength: 14 },
).map((parts) => parts.join(""));

/** A word in one of the shell's quoting forms, around text that may itself be code. */
const quotedWord = fc.oneof(
  fc.constantFrom("rm", "ls", "x", "'rm'", '"rm"', "r\\m", "\\rm", "r''m", 'r""m', "$'rm'"),
  fc.constantFrom("'a b'", '"a $b"', '"$(ls)"', "'$(rm)'", '"`ls`"', "\\`rm\\`", "\\$x"),
);

/** Backtick substitutions, nested with escapes as the shell un-escapes them. */
const backtickArbitrary = fc.letrec<{ inner: string }>((tie) => ({
  inner: fc.oneof(
    { depthSize: "small" },
    fc.tuple(fc.constantFrom("rm", "ls", "echo"), fc.array(quotedWord, { maxLength: 2 }))
      .map(([name, words]) => [name, ...words].join(" ")),
    tie("inner").map((s) => `echo \`${s.replaceAll("\\", "\\\\").replaceAll("`", "\\`")}\``),
    tie("inner").map((s) => `echo "$(${s})"`),
    tie("inner").map((s) => `echo "\`${s.replaceAll("`", "\\`")}\`"`),
  ),
})).inner.map((s) => `echo \`${s.replaceAll("\\", "\\\\").replaceAll("`", "\\`")}\``);

/** Here-document delimiters, plain and quoted in every way the shell allows. */
const DELIMITERS = [
  "EOF",
  "'EOF'",
  '"EOF"',
  "\\EOF",
  'E"O"F',
  "E'O'F",
  '"E"OF',
  "E\\OF",
  "EO''F",
  "-EOF",
];

/** Here-documents with bodies that hold backticks, substitutions and quotes. */
const heredocArbitrary = fc.tuple(
  fc.constantFrom("cat", "bash", "sh", "dash", "echo"),
  fc.constantFrom("<<", "<<-", "<< ", "<<-\t"),
  fc.constantFrom(...DELIMITERS),
  fc.array(
    fc.oneof(
      fc.constantFrom("rm x", "`rm x`", "$(rm x)", "'`rm`'", '"$(rm)"', "\\`rm\\`", "\\$(rm)"),
      fc.constantFrom("EOF", "\tEOF", 'E"O"F', "EOF x", " EOF", "$x", "${x}", "\\"),
      quotedWord,
    ),
    { maxLength: 4 },
  ),
  fc.constantFrom("EOF", "\tEOF", "", 'E"O"F'),
  fc.constantFrom("", "\nrm y", "\nls; rm y", "\n`rm y`"),
).map(([command, arrow, delimiter, lines, end, after]) =>
  `${command} ${arrow}${delimiter}\n${lines.join("\n")}\n${end}${after}`
);

/** Scripts about quoting, backticks and here-documents: where grammar and shells disagreed. */
export const quotingArbitrary: fc.Arbitrary<string> = fc.oneof(
  backtickArbitrary,
  heredocArbitrary,
  fc.array(fc.oneof(quotedWord, fc.constantFrom(" ", ";", "|", "\n", "`", "$(", ")")), {
    maxLength: 10,
  }).map((parts) => parts.join("")),
);
