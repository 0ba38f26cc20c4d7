import assert from "node:assert/strict";
import fc from "fast-check";
import { BashParser } from "../../src/policy/command_names/bash_parser.ts";
import {
  checkCommandNames,
  extractCommandNames,
  type NameLists,
} from "../../src/policy/command_names/mod.ts";
import type { Decision } from "../../src/policy/decision.ts";
import { testSeed } from "../seed.ts";

/** Fixed by default so the gate is deterministic; `deno task fuzz` explores fresh seeds. */
const SEED = testSeed("command-name fuzz", 1_301_013);

/** Per-call bound; generous so that a busy 2-core machine does not fail the run. */
const MAX_CALL_MS = 250;
/** The parse budget of this suite's parser, well inside the per-call bound. */
const PARSE_TIMEOUT_MS = 100;

const parser = await BashParser.load({ parseTimeoutMs: PARSE_TIMEOUT_MS });

const LISTS: NameLists[] = [
  { blacklist: ["rm"], whitelist: [] },
  { blacklist: [], whitelist: ["git", "ls", "echo", "wc"] },
];

/** Commands from the table tests, the starting points of mutation. */
const CORPUS = [
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

/**
 * Scripts where bash once ran a name the checker did not report, each found by a differential
 * run and fixed; the differential test always runs them.
 */
const REGRESSIONS: Record<string, string> = {
  "issue 10: a - word dropped before an assignment": "ssh ;- ProxCyommand='mr 'x host l",
};

/** Tokens for bash-ish soup and for mutations. */
const TOKENS = [
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
const SPECIALS = [
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

type Mutation = { kind: "insert" | "delete" | "swap" | "duplicate"; at: number; text: string };

function mutate(source: string, mutations: readonly Mutation[]): string {
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

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom("insert", "delete", "swap", "duplicate"),
  at: fc.nat(),
  text: fc.oneof(fc.constantFrom(...SPECIALS), fc.constantFrom(...TOKENS)),
});

/** Syntactically plausible bash, built from the constructs the checker must follow. */
const { script: scriptArbitrary } = fc.letrec<{ script: string; word: string }>((tie) => ({
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

function assertDecision(decision: Decision, command: string): void {
  const where = JSON.stringify(command);
  if (decision.allow) {
    assert.deepEqual(Object.keys(decision), ["allow"], where);
    return;
  }
  assert.equal(decision.allow, false, where);
  assert.equal(typeof decision.reason, "string", where);
  assert.match(decision.reason, /^[A-Z]/, `reason not in sentence case for ${where}`);
  assert.ok(!decision.reason.endsWith("."), `reason ends with a period for ${where}`);
}

interface Timing {
  slowestMs: number;
  slowestCommand: string;
  calls: number;
}

function newTiming(): Timing {
  return { slowestMs: 0, slowestCommand: "", calls: 0 };
}

/** Runs the checker under every list, asserting that it returns a decision in time. */
function check(command: string, timing: Timing): Decision[] {
  return LISTS.map((lists) => {
    const start = performance.now();
    const decision = checkCommandNames(command, lists, parser);
    const elapsed = performance.now() - start;
    timing.calls++;
    if (elapsed > timing.slowestMs) {
      timing.slowestMs = elapsed;
      timing.slowestCommand = command;
    }
    assert.ok(
      elapsed < MAX_CALL_MS,
      `checkCommandNames took ${elapsed.toFixed(1)} ms for ${
        JSON.stringify(command.slice(0, 200))
      }`,
    );
    assertDecision(decision, command);
    return decision;
  });
}

Deno.test("fuzz: bash-ish token soup never throws and stays fast", () => {
  const timing = newTiming();
  const soup = fc.tuple(
    fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }),
    fc.constantFrom(" ", "", "  "),
  ).map(([tokens, glue]) => tokens.join(glue));
  fc.assert(fc.property(soup, (command) => void check(command, timing)), {
    seed: SEED,
    numRuns: 2500,
  });
  assert.ok(timing.calls >= 5000);
});

Deno.test("fuzz: mutated table cases never throw and stay fast", () => {
  const timing = newTiming();
  const mutated = fc.tuple(
    fc.constantFrom(...CORPUS),
    fc.array(mutationArbitrary, { minLength: 1, maxLength: 8 }),
  ).map(([source, mutations]) => mutate(source, mutations));
  fc.assert(fc.property(mutated, (command) => void check(command, timing)), {
    seed: SEED,
    numRuns: 3000,
  });
});

Deno.test("fuzz: arbitrary strings (any code point) never throw", () => {
  const timing = newTiming();
  const strings = fc.oneof(
    fc.string({ maxLength: 120 }),
    fc.string({ unit: "binary", maxLength: 60 }),
    fc.string({ unit: fc.constantFrom(...SPECIALS, "a", "r", "m", "\r", "\u0000"), maxLength: 80 }),
  );
  fc.assert(fc.property(strings, (command) => void check(command, timing)), {
    seed: SEED,
    numRuns: 1500,
  });
});

Deno.test("fuzz: generated scripts agree with their own extracted names", () => {
  const timing = newTiming();
  fc.assert(
    fc.property(scriptArbitrary, (command) => {
      check(command, timing);
      const tree = parser.parse(command);
      try {
        if (tree.rootNode.hasError) return;
        const result = extractCommandNames(tree.rootNode, parser, { source: command });
        if ("unknown" in result) return;
        // Listing exactly the names found must allow the command (unless PATH changes) ...
        const exact = checkCommandNames(
          command,
          { blacklist: [], whitelist: result.names },
          parser,
        );
        if (result.names.length > 0 && !result.reassignsPath) {
          assert.deepEqual(exact, { allow: true }, JSON.stringify(command));
        }
        // ... and blacklisting any one of them must reject it.
        for (const name of result.names) {
          const blocked = checkCommandNames(command, { blacklist: [name], whitelist: [] }, parser);
          assert.equal(blocked.allow, false, `${name} not blocked in ${JSON.stringify(command)}`);
        }
        // A generated script that runs rm somewhere is never allowed under blacklist [rm].
        if (result.names.some((name) => name === "rm")) {
          assert.equal(checkCommandNames(command, LISTS[0], parser).allow, false);
        }
      } finally {
        tree.delete();
      }
    }),
    { seed: SEED, numRuns: 1500 },
  );
});

Deno.test("fuzz: deep nesting and crafted slow inputs are bounded", async (t) => {
  const timing = newTiming();
  await t.step("nested substitutions, shells and wrappers still find rm", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.constantFrom(0, 1, 2), (depth, shape) => {
        let command = "rm x";
        if (shape === 0) command = `${"echo $(".repeat(depth)}rm x${")".repeat(depth)}`;
        else if (shape === 1) command = `${"sudo ".repeat(depth)}rm x`;
        else {
          for (let i = 0; i < Math.min(depth, 6); i++) {
            command = `bash -c '${command.replaceAll("'", "'\\''")}'`;
          }
        }
        const [blacklist] = check(command, timing);
        assert.equal(blacklist.allow, false, JSON.stringify(command.slice(0, 120)));
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
  await t.step("inputs that make tree-sitter-bash slow hit the parse budget", () => {
    for (
      const command of [
        "x=(".repeat(4000),
        "${".repeat(8000),
        "<<E ".repeat(4000),
        'echo "'.repeat(6000),
        "[[ ".repeat(12000),
        "case x in ".repeat(3000),
        `bash -c '${"x=(".repeat(3000)}'`,
        "a".repeat(70_000),
      ]
    ) {
      const decisions = check(command, timing);
      if (command.length > 65_536) {
        for (const decision of decisions) {
          assert.match(decision.allow ? "" : decision.reason, /limit/);
        }
      }
    }
  });
});

/** Line breaks, blanks and backslashes between words: where grammar and bash disagreed most. */
const spacingArbitrary = fc.array(
  fc.oneof(
    fc.constantFrom("ls", "rm", "x", "-la", "'q'", '"d"', "$v", "`ls`", "$(ls)", "#c", "{", "}"),
    fc.constantFrom("if", "then", "fi", "cat", "<<E", "E", "a=1", "1a=1", ">f", "|", "&&", ";"),
    fc.constantFrom("!", "time", "sudo", "bash", "-c", "[[", "]]", "=", "$"),
    fc.constantFrom("\n", "\n\n", "\\\n", " \\\n", "\\", "\\ ", " ", "\t", "\\\t", "\r\n", "\n\\"),
  ),
  { maxLength: 14 },
).map((parts) => parts.join(""));

/**
 * Scripts the differential test may run: no path can name a real program (PATH points nowhere
 * and no `/` is allowed), no way back to one (`command -p`, `cd`, `hash`, `enable`), nothing
 * left running (`&`, `coproc`, functions).
 */
function safeToRun(script: string): boolean {
  return !/[/~]|\.\.|\b(command|cd|pushd|popd|hash|enable|coproc|function|exec|eval|source)\b|\(\)/
    .test(script) && !/(^|[^&<>])&(?![&>])/.test(script);
}

async function bashPath(): Promise<string | null> {
  try {
    const { success, stdout } = await new Deno.Command("bash", {
      args: ["-c", 'printf %s "$BASH"'],
      stdin: "null",
      stderr: "null",
    }).output();
    return success ? new TextDecoder().decode(stdout) : null;
  } catch {
    return null;
  }
}

const BASH = await bashPath();

Deno.test({
  name: "differential: bash runs no command name that was not extracted",
  // Linux only: on Windows `$BASH` is an MSYS path Deno cannot spawn, and the bash 3.2 of macOS
  // has no command_not_found_handle (bash 4+), so nothing would be logged and it would pass empty.
  ignore: Deno.build.os !== "linux" || BASH === null,
  async fn() {
    const work = await Deno.makeTempDir({ prefix: "yieldshell-names-" });
    try {
      // Every command bash cannot find is logged (NUL-separated) instead of failing.
      const prelude = `${work}/prelude.sh`;
      await Deno.writeTextFile(
        prelude,
        `ulimit -t 2 2>/dev/null\ncommand_not_found_handle() { printf '%s\\0' "$1" >> "$LOG"; return 127; }\n`,
      );
      const mutated = fc.tuple(
        fc.constantFrom(...CORPUS),
        fc.array(mutationArbitrary, {
          minLength: 1,
          maxLength: 6,
        }),
      ).map(([source, mutations]) => mutate(source, mutations));
      const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((t) => t.join(" "));
      const candidates = fc.sample(fc.oneof(mutated, soup, scriptArbitrary, spacingArbitrary), {
        seed: SEED,
        numRuns: 900,
      });
      const scripts = [
        ...Object.values(REGRESSIONS),
        ...[...new Set(candidates)].filter(safeToRun).slice(0, 300),
      ];
      assert.ok(scripts.length >= 100, `only ${scripts.length} safe scripts were generated`);
      let compared = 0;
      for (const [i, script] of scripts.entries()) {
        const tree = parser.parse(script);
        let found: string[];
        try {
          if (tree.rootNode.hasError) continue;
          const result = extractCommandNames(tree.rootNode, parser, { source: script });
          if ("unknown" in result) continue;
          found = result.names.map((name) => basenameOf(name).toLowerCase());
        } finally {
          tree.delete();
        }
        const log = `${work}/log-${i}`;
        await Deno.writeTextFile(log, "");
        await new Deno.Command(BASH!, {
          args: ["-c", script],
          cwd: work,
          clearEnv: true,
          env: { PATH: "/nonexistent", HOME: work, LOG: log, BASH_ENV: prelude },
          stdin: "null",
          stdout: "null",
          stderr: "null",
          signal: AbortSignal.timeout(5_000),
        }).output();
        const ran = (await Deno.readTextFile(log)).split("\0").filter((name) => name !== "");
        const missed = ran.filter((name) => !found.includes(basenameOf(name).toLowerCase()));
        assert.deepEqual(
          missed,
          [],
          `bash ran ${JSON.stringify(missed)} in ${JSON.stringify(script)}`,
        );
        compared++;
      }
      assert.ok(compared >= 50, `only ${compared} scripts were compared`);
    } finally {
      await Deno.remove(work, { recursive: true });
    }
  },
});

function basenameOf(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1);
}
