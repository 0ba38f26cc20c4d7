/**
 * Differential test of the command-name checker against the shells that run commands: dash
 * (the usual `/bin/sh`) and bash. Thousands of generated scripts (mutated table cases, token
 * soup, nested constructs, odd spacing, and quoting, backticks and here-documents) run in
 * each shell with PATH pointing nowhere, so every command name the shell looks up fails and
 * is logged; every name logged must be one the checker extracted for that shell, unless the
 * checker refuses the script. bash logs through `command_not_found_handle`; dash prints
 * `NAME: not found`, which the test reads from stderr.
 *
 * Seed: fixed (printed); `YIELDSHELL_TEST_SEED` replays another, `deno task fuzz` explores.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { BashParser } from "../../src/policy/command_names/bash_parser.ts";
import { type Dialect, loadCommandNames } from "../../src/policy/command_names/mod.ts";
import { testSeed } from "../seed.ts";
import {
  CORPUS,
  mutate,
  mutationArbitrary,
  quotingArbitrary,
  scriptArbitrary,
  spacingArbitrary,
  TOKENS,
} from "./bash_generators.ts";

const SEED = testSeed("differential (dash, bash)", 424_242);
/** Scripts run through both shells per run. */
const SCRIPTS = 2_000;
/** Shells run at once: the work is mostly waiting for tiny processes. */
const CONCURRENCY = 4;

/**
 * Scripts where a shell once ran a name the checker did not report, each found by a
 * differential run and fixed; every run repeats them.
 */
export const REGRESSIONS: Record<string, string> = {
  "issue 10: a - word dropped before an assignment": "ssh ;- ProxCyommand='mr 'x host l",
  "issue 13: a backtick in an unquoted here-document": "cat <<EOF\n`rm x`\nEOF",
  "issue 13: nested escaped backticks": "echo `echo \\`rm x\\``",
  "issue 13: a delimiter with quotes inside the word": 'cat <<E"O"F\nhi\nEOF\nrm x\nE"O"F',
  "issue 13: a delimiter line with a leading blank": "cat << EOF\n EOF\n'$(rm)'\nEOF",
  "issue 13: a line ending in a backslash before the delimiter":
    "echo <<'EOF'\n\\\nEOF\nEOF\n\\\n\nrm y",
  "issue 13: a comment ending in a backslash": "\\#c\t#c\\\n\\&&",
  "issue 13: a backslash before a carriage return": 'a=1"d"-laa=1$vls\\\r\nfitime',
  "issue 13: [[ over a line break, which dash runs as commands": "[[ -n $(ls) \n]]",
  "issue 13: (( )), which dash runs as nested subshells": "((git))",
  "issue 13: ]], which dash runs as a command": "]]",
  "issue 13: > } } {, a target the grammar reads with blanks": "> } } {",
  "issue 13: time FOO=1 else, an assignment after time": "time FOO=1 else",
  "issue 13: a command the grammar carries over a blank line": ">f a=1\n\n!\t'q'1a=1",
  "issue 13: a redirection the grammar carries over a line break": "]]>f\n\\\n \\\nxbash",
  "issue 13: a reserved word after time and a redirection": "time <<< 'EOF' ]] for \n bash ssh",
  "issue 13: a += assignment, which dash runs as a command": "FO+=1 make; tset",
  "issue 13: a here-document end token that swallows lines":
    "echo <<EO''F\n$x\nEOF\nrm x\n'`rm`'\n",
  "issue 13: a command name split off an assignment": "a=rm{$] $a -rf x",
  "issue 13: an assignment value with a blank in it": "rmE=} [[a=1'q'a=1-c",
  "issue 13: a concatenation over a line break": "= - ` ` \n ! alias.x=!rm",
  "issue 13: a here-string word with a blank in it": "<<< { [[",
  "issue 13: a [ test over a line break": "[ \n ]",
  "issue 13: a [ test holding a pipe": "x=$(( $(rm) + 1 )); [ -n $(ls)| ]]",
  "issue 13: &>, which dash reads as & and >": "git -c 2&>1alias.x='!rexecm y' x",
};

const parser = await BashParser.load();
const { extractCommandNames } = await loadCommandNames();

/**
 * Scripts safe to run: no path can name a real program (PATH points nowhere and no `/` is
 * allowed), no way back to one (`command -p`, `cd`, `hash`, `enable`), nothing left running
 * (`&`, `coproc`, functions) and no signal sent.
 */
function safeToRun(script: string): boolean {
  return !/[/~]|\.\.|\b(command|cd|pushd|popd|hash|enable|coproc|function|exec|eval|source|kill|trap|ulimit|wait)\b|\(\)/
    .test(script) && !/(^|[^&<>])&(?![&>])/.test(script);
}

async function shellPath(name: string): Promise<string | null> {
  try {
    const { success, stdout } = await new Deno.Command("sh", {
      args: ["-c", `command -v ${name}`],
      stdin: "null",
      stderr: "null",
    }).output();
    const path = new TextDecoder().decode(stdout).trim();
    return success && path.startsWith("/") ? path : null;
  } catch {
    return null;
  }
}

interface Shell {
  name: string;
  path: string;
  dialect: Dialect;
  /** Runs a script; resolves with the names it looked up that are not in `found`. */
  missed(script: string, found: readonly string[], work: string, id: number): Promise<string[]>;
}

const decoder = new TextDecoder();

/** Runs `path -c script` with a CPU limit, an empty PATH and a clean environment. */
async function runShell(
  path: string,
  script: string,
  options: { work: string; env: Record<string, string> },
): Promise<string> {
  const { stderr } = await new Deno.Command("/bin/sh", {
    // The limit applies to the shell exec'd in place of this one: no loop runs away.
    // `--`: a script starting with `-` is a script, not options.
    args: ["-c", 'ulimit -t 2 2>/dev/null; exec "$0" -c -- "$1" yssh', path, script],
    cwd: options.work,
    clearEnv: true,
    env: { PATH: "/nonexistent", HOME: options.work, ...options.env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    signal: AbortSignal.timeout(10_000),
  }).output();
  return decoder.decode(stderr);
}

function bashShell(path: string, prelude: string): Shell {
  return {
    name: "bash",
    path,
    dialect: "bash",
    async missed(script, found, work, id) {
      const log = `${work}/log-${id}`;
      await Deno.writeTextFile(log, "");
      await runShell(path, script, { work, env: { LOG: log, BASH_ENV: prelude } });
      const ran = (await Deno.readTextFile(log)).split("\0").filter((name) => name !== "");
      const keys = found.map(key);
      return ran.filter((name) => !keys.includes(key(name)));
    },
  };
}

/**
 * dash prints `yssh: LINE: NAME: not found`, in several writes: the processes of a pipeline
 * can interleave them. The messages of the names found are taken out first (longest first);
 * what is left of a `: not found` is a name missed, unless it was interleaving, which is told
 * apart by running the script twice more: a real miss is there every time.
 */
function dashShell(path: string): Shell {
  const once = async (script: string, found: readonly string[], work: string) => {
    let text = (await runShell(path, script, { work, env: {} })).replace(/yssh: \d+: /g, "\n");
    for (const name of [...found].sort((a, b) => b.length - a.length)) {
      text = text.split(`${name}: not found`).join("\n");
    }
    const keys = found.map(key);
    const names = [];
    for (const line of text.split("\n")) {
      const match = /^(.*?): not found$/.exec(line);
      if (match !== null && !keys.includes(key(match[1]))) names.push(match[1]);
    }
    return names;
  };
  return {
    name: "dash",
    path,
    dialect: "posix",
    async missed(script, found, work) {
      let missed = await once(script, found, work);
      for (let retry = 0; retry < 2 && missed.length > 0; retry++) {
        const again = await once(script, found, work);
        missed = missed.filter((name) => again.includes(name));
      }
      return missed;
    },
  };
}

/** The names the checker extracts for `dialect`, or null when it refuses the script. */
function extracted(script: string, dialect: Dialect): string[] | null {
  const tree = parser.parse(script);
  try {
    if (tree.rootNode.hasError) return null;
    const result = extractCommandNames(tree.rootNode, parser, {
      source: script,
      dialect,
      shDialect: "posix",
    });
    if ("unknown" in result || "refused" in result) return null;
    return result.names;
  } finally {
    tree.delete();
  }
}

function key(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1).toLowerCase();
}

/** A script with the names the checker extracts for each shell (null: refused there). */
interface Case {
  script: string;
  names: Record<Dialect, string[] | null>;
}

/**
 * Generated scripts that the checker lets run in at least one of the shells: the regressions
 * first, then distinct safe ones, until `count` of them run.
 */
function generate(count: number): { cases: Case[]; generated: number } {
  const mutated = fc.tuple(
    fc.constantFrom(...CORPUS),
    fc.array(mutationArbitrary, { minLength: 1, maxLength: 6 }),
  ).map(([source, mutations]) => mutate(source, mutations));
  const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((t) => t.join(" "));
  const arbitrary = fc.oneof(
    mutated,
    soup,
    scriptArbitrary,
    scriptArbitrary,
    spacingArbitrary,
    quotingArbitrary,
    quotingArbitrary,
    quotingArbitrary,
  );
  const seen = new Set<string>();
  const cases: Case[] = [];
  const consider = (script: string, always: boolean) => {
    if (seen.has(script) || !safeToRun(script)) return;
    seen.add(script);
    const names = { posix: extracted(script, "posix"), bash: extracted(script, "bash") };
    if (always || names.posix !== null || names.bash !== null) cases.push({ script, names });
  };
  for (const script of Object.values(REGRESSIONS)) consider(script, true);
  for (let round = 0; cases.length < count && round < 20; round++) {
    for (const script of fc.sample(arbitrary, { seed: SEED + round, numRuns: count * 2 })) {
      consider(script, false);
      if (cases.length >= count) break;
    }
  }
  return { cases, generated: seen.size };
}

const DASH = await shellPath("dash");
const BASH = await shellPath("bash");

Deno.test({
  name: "differential: dash and bash run no command name that was not extracted or refused",
  // Linux only: on Windows `bash` is an MSYS binary Deno cannot drive like this, and the bash
  // 3.2 of macOS has no command_not_found_handle (bash 4+), so nothing would be logged.
  ignore: Deno.build.os !== "linux" || DASH === null || BASH === null,
  async fn() {
    const work = await Deno.makeTempDir({ prefix: "yieldshell-differential-" });
    try {
      // Every command bash cannot find is logged (NUL-separated) instead of failing.
      const prelude = `${work}/prelude.sh`;
      await Deno.writeTextFile(
        prelude,
        `command_not_found_handle() { printf '%s\\0' "$1" >> "$LOG"; return 127; }\n`,
      );
      const shells = [dashShell(DASH!), bashShell(BASH!, prelude)];
      const { cases, generated } = generate(SCRIPTS);
      assert.ok(cases.length >= SCRIPTS, `only ${cases.length} runnable scripts were generated`);
      const compared: Record<string, number> = { dash: 0, bash: 0 };
      const misses: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < cases.length) {
          const id = next++;
          const { script, names } = cases[id];
          for (const shell of shells) {
            const found = names[shell.dialect];
            if (found === null) continue;
            const missed = await shell.missed(script, found, work, id);
            compared[shell.name]++;
            if (missed.length > 0) {
              misses.push(
                `${shell.name} ran ${JSON.stringify(missed)} in ${JSON.stringify(script)}`,
              );
            }
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      console.log(
        `differential: ${generated} scripts generated, ${cases.length} run: ${compared.dash} in dash, ${compared.bash} in bash (the others refused)`,
      );
      assert.deepEqual(misses, []);
      assert.ok(
        compared.dash >= SCRIPTS / 2 && compared.bash >= SCRIPTS / 2,
        JSON.stringify(compared),
      );
    } finally {
      await Deno.remove(work, { recursive: true });
    }
  },
});
