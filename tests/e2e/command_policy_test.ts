/**
 * Issue 13, end to end: every bypass the red team named, under a blacklist and a whitelist,
 * with commands read by dash (the default /bin/sh) and by bash (`--shell /bin/bash`), through
 * the SDK client. Each command would remove the file `x` of its own directory: it must be
 * refused, for the reason the case names, and `x` must still exist afterwards. Then the
 * ordinary-command table runs under the same four servers.
 */
import assert from "node:assert/strict";
import { type Session, startServer } from "./harness.ts";
import { linux } from "../os.ts";

interface Case {
  name: string;
  command: string;
  env?: Record<string, string>;
  /** The explicit shell parameter. */
  shell?: string;
  /** What every refusal of this case says. */
  reason: RegExp;
}

/** Text bash evaluates as code (issue 13 item 4): run through `bash -c` from dash, or as is. */
const BASH_EVALUATION: [string, string][] = [
  ["arithmetic on a variable holding a subscript", "x='a[$(rm -f x)]'; echo $((x))"],
  ["${x@P}", "x='$(rm -f x)'; echo ${x@P}"],
  ["PS4 with set -x", "PS4='$(rm -f x)'; set -x; :"],
  ["printf -v with a subscript", "printf -v 'a[$(rm -f x)]' %s 1"],
  ["declare with a subscript", "declare 'a[$(rm -f x)]=1'"],
  ["let with a subscript", "let 'a[$(rm -f x)]=1'"],
  ["[[ -v ]] with a subscript", "[[ -v 'a[$(rm -f x)]' ]]"],
  ["[[ -eq ]] on a variable holding a subscript", "x='a[$(rm -f x)]'; [[ $x -eq 0 ]]"],
  ["read with a subscript", "read 'a[$(rm -f x)]' <<< 1"],
  ["an indirect expansion", "x='a[$(rm -f x)]'; echo ${!x}"],
];

function quoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function cases(fixture: Fixture, shell: "dash" | "bash"): Case[] {
  const { evil, evilScript, fakeShell } = fixture;
  const rm = /'rm'/;
  const bashCases = BASH_EVALUATION.map(([name, text]): Case => ({
    name: `bash evaluates data: ${name}`,
    command: shell === "bash" ? text : `bash -c ${quoted(text)}`,
    reason: /under bash|Variable 'PS4'/,
  }));
  return [
    // 1. The grammar and the shell must agree.
    {
      name: "a backtick in an unquoted here-document",
      command: "cat <<EOF\n`rm -f x`\nEOF",
      reason: rm,
    },
    { name: "nested escaped backticks", command: "echo `echo \\`rm -f x\\``", reason: rm },
    {
      name: "a here-document delimiter with quotes inside",
      command: 'cat <<E"O"F\nhi\nEOF\nrm -f x\nE"O"F',
      reason: /here-document delimiter/,
    },
    {
      name: "a delimiter line the grammar ends early",
      command: "cat << EOF\n EOF\n$(rm -f x)\nEOF",
      reason: /here-document delimiter|'rm'/,
    },
    {
      name: "(( )), which dash runs as subshells",
      command: "((rm -f x))",
      reason: /'rm'|under bash|could not be parsed/,
    },
    {
      name: "a - word the grammar drops (issue 10)",
      command: "true ;- FOO='x' rm -f x",
      reason: /word starting with -|'rm'/,
    },
    // 2. Environment channels.
    {
      name: "env LD_PRELOAD",
      command: "ls",
      env: { LD_PRELOAD: `${evil}/x.so` },
      reason: /'LD_PRELOAD'/,
    },
    {
      name: "env PATH with an ls that is rm",
      command: "ls x",
      env: { PATH: `${evil}:/usr/bin:/bin` },
      reason: /'PATH'/,
    },
    {
      name: "env BASH_ENV",
      command: "bash -c true",
      env: { BASH_ENV: evilScript },
      reason: /'BASH_ENV'/,
    },
    {
      name: "an exported bash function",
      command: "bash -c ls",
      env: { "BASH_FUNC_ls%%": "() { rm -f x; }" },
      reason: /'BASH_FUNC_ls%%'/,
    },
    {
      name: "an LD_PRELOAD= prefix",
      command: `LD_PRELOAD=${evil}/x.so ls`,
      reason: /'LD_PRELOAD'/,
    },
    { name: "env LD_PRELOAD=", command: `env LD_PRELOAD=${evil}/x.so ls`, reason: /'LD_PRELOAD'/ },
    {
      name: "env GIT_CONFIG_COUNT/KEY/VALUE",
      command: "git l",
      env: { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "alias.l", GIT_CONFIG_VALUE_0: "!rm -f x" },
      reason: /'GIT_CONFIG_/,
    },
    {
      name: "GIT_CONFIG_* prefixes",
      command: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.l GIT_CONFIG_VALUE_0='!rm -f x' git l",
      reason: /'GIT_CONFIG_/,
    },
    {
      name: "env GIT_CONFIG_PARAMETERS",
      command: "git l",
      env: { GIT_CONFIG_PARAMETERS: "'alias.l=!rm -f x'" },
      reason: /'GIT_CONFIG_PARAMETERS'/,
    },
    { name: "PS4 for bash -x", command: "PS4='$(rm -f x)' bash -xc :", reason: /'PS4'/ },
    { name: "export PATH", command: `export PATH=${evil}:$PATH; ls x`, reason: /'PATH'/ },
    {
      name: "env PROMPT_COMMAND",
      command: "bash -ic true",
      env: { PROMPT_COMMAND: "rm -f x" },
      reason: /'PROMPT_COMMAND'/,
    },
    // 3. Explicit shells.
    {
      name: "a link named sh to python3",
      command: "import os; os.remove('x')",
      shell: fakeShell,
      reason: /not a configured shell|does not read bash syntax/,
    },
    {
      name: "a shell the operator did not configure",
      command: "rm -f x",
      shell: "/usr/bin/perl",
      reason: /not a configured shell/,
    },
    // 4. bash evaluates what looks like data.
    ...bashCases,
    // 5. Programs that run their arguments or inline code.
    { name: "unshare", command: "unshare rm -f x", reason: rm },
    { name: "prlimit", command: "prlimit rm -f x", reason: rm },
    { name: "setpriv", command: "setpriv --reset-env rm -f x", reason: rm },
    { name: "setarch", command: "setarch x86_64 -R rm -f x", reason: rm },
    {
      name: "the dynamic loader",
      command: "/lib64/ld-linux-x86-64.so.2 /bin/rm -f x",
      reason: /rm'/,
    },
    {
      name: "git ls-remote --upload-pack",
      command: "git ls-remote --upload-pack='rm -f x;:' .",
      reason: rm,
    },
    { name: "git clone ext::", command: "git clone 'ext::sh -c rm% -f% x' y", reason: /ext::/ },
    { name: "perl -M", command: "perl '-Mstrict;unlink q(x)' /dev/null", reason: /perl -M/ },
    {
      name: "python3 -m timeit -s",
      command: "python3 -m timeit -n 1 -s \"import os; os.remove('x')\" pass",
      reason: /python -m timeit/,
    },
    {
      name: "node --import data:",
      command:
        `node --import 'data:text/javascript,import {rmSync} from "node:fs"; rmSync("x")' /dev/null`,
      reason: /node --import/,
    },
    {
      name: "deno run data:",
      command: "deno run -A 'data:application/javascript,Deno.removeSync(\"x\")'",
      reason: /deno runs code/,
    },
    {
      name: "deno run -",
      command: "deno run -A - <<'EOF'\nDeno.removeSync('x')\nEOF",
      reason: /deno runs code|drops/,
    },
    {
      name: "ed fed a script",
      command: "ed -s x <<'EOF'\n!rm -f x\nq\nEOF",
      reason: /ed reads editor commands/,
    },
    {
      name: "vim -e fed a script",
      command: "vim -e x <<'EOF'\n!rm -f x\nq!\nEOF",
      reason: /vim -e reads Ex commands/,
    },
    {
      name: "make with a makefile from stdin",
      command: "make -f- <<'EOF'\nall:\n\trm -f x\nEOF",
      reason: /makefile the policy cannot see/,
    },
    { name: "make --eval", command: "make --eval='all: ; rm -f x'", reason: /make --eval/ },
    {
      name: "awk: a line continuation before (",
      command: "awk 'BEGIN { system\\\n(\"rm -f x\") }'",
      reason: /awk program can run commands/,
    },
    {
      name: "awk: a regex after a line break, read as a division",
      command: 'awk \'BEGIN { y = 1\n/"/; system("rm -f x") } # "\'',
      reason: /awk program can run commands/,
    },
  ];
}

/** Ordinary commands (issue 13 item 7): they still run under every list and shell. */
const ORDINARY = [
  "git status",
  "ls | wc -l",
  "make test",
  "npm run build",
  'echo "rm is a word"',
  "grep -r rm .",
  "cat <<EOF\nremember to rm the build directory\nEOF",
  "cat <<'EOF'\nrm -rf /\nEOF",
  'echo "set your PATH"',
  "cd . && true",
  "export FOO=1; :",
  "FOO=1 make test",
  "printf '%s\\n' a b | wc -l",
  "for i in 1 2 3; do echo $((i * 2)); done",
  "x=5; echo $((x + 1))",
  "echo hi > out.txt && cat out.txt && sed -n 1p out.txt",
  "find . -name '*.txt' -type f | wc -l",
  "git log --oneline -3 2>/dev/null || echo no repository",
];

/** Names the whitelist lists: everything the cases and the ordinary table name, but rm. */
const WHITELIST = [
  "echo",
  "ls",
  "cat",
  "bash",
  "git",
  "wc",
  "grep",
  "make",
  "npm",
  "perl",
  "python3",
  "node",
  "deno",
  "awk",
  "sed",
  "find",
  "env",
  "unshare",
  "prlimit",
  "setpriv",
  "setarch",
  "ed",
  "vim",
  "/lib64/ld-linux-x86-64.so.2",
];

interface Fixture {
  base: string;
  /** A directory holding an `ls` that removes its arguments. */
  evil: string;
  /** A script that removes `x` in the current directory. */
  evilScript: string;
  /** A link named `sh` to the python interpreter. */
  fakeShell: string;
}

async function fixture(): Promise<Fixture> {
  const base = await Deno.makeTempDir({ prefix: "yieldshell-policy-" });
  const evil = `${base}/evil`;
  await Deno.mkdir(evil);
  await Deno.writeTextFile(`${evil}/ls`, '#!/bin/sh\nexec /bin/rm -f "$@"\n', { mode: 0o755 });
  const evilScript = `${base}/evil.sh`;
  await Deno.writeTextFile(evilScript, "rm -f x\n");
  const python = await new Deno.Command("python3", {
    args: ["-c", "import sys; print(sys.executable)"],
  }).output();
  await Deno.mkdir(`${base}/shells`);
  const fakeShell = `${base}/shells/sh`;
  await Deno.symlink(new TextDecoder().decode(python.stdout).trim() || "/usr/bin/perl", fakeShell);
  return { base, evil, evilScript, fakeShell };
}

interface Server {
  label: string;
  session: Session;
  shell: "dash" | "bash";
}

async function servers(fix: Fixture): Promise<Server[]> {
  const lists: [string, string[]][] = [
    ["blacklist rm", ["--blacklist", "rm"]],
    ["whitelist", ["--whitelist", [...WHITELIST, fix.fakeShell].join(",")]],
  ];
  const started: Server[] = [];
  for (const [label, args] of lists) {
    for (const shell of ["dash", "bash"] as const) {
      const shellArgs = shell === "bash" ? ["--shell", "/bin/bash"] : [];
      const session = await startServer({ args: [...args, ...shellArgs] });
      started.push({ label: `${label}, ${shell}`, session, shell });
    }
  }
  return started;
}

/** Runs `command` in a fresh directory holding `x`; says whether `x` survived. */
async function run(server: Server, fix: Fixture, id: string, args: Record<string, unknown>) {
  const dir = `${fix.base}/${id}`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/x`, "precious\n");
  const reply = await server.session.call("execute", { cwd: dir, yield_ms: 20_000, ...args });
  const survived = await Deno.stat(`${dir}/x`).then(() => true, () => false);
  return { reply, survived };
}

linux.test("issue 13: every named bypass is refused under a blacklist and a whitelist, and x survives", async (t) => {
  const fix = await fixture();
  const started = await servers(fix);
  try {
    let n = 0;
    for (const server of started) {
      for (const c of cases(fix, server.shell)) {
        await t.step(`${server.label}: ${c.name}`, async () => {
          const { reply, survived } = await run(server, fix, `case-${n++}`, {
            command: c.command,
            side_effects: ["DELETES_FILES"],
            ...(c.env === undefined ? {} : { env: c.env }),
            ...(c.shell === undefined ? {} : { shell: c.shell }),
          });
          assert.equal(reply.payload.status, "failed_to_start", `${c.command} → ${reply.text}`);
          assert.match(reply.payload.error, c.reason);
          assert.equal(survived, true, "the file the command would remove is gone");
        });
      }
      // Under dash, text that only bash evaluates is harmless: refused or run, x survives.
      if (server.shell === "dash") {
        for (const [name, text] of BASH_EVALUATION) {
          await t.step(`${server.label}: dash reads ${name} as data`, async () => {
            const { survived } = await run(server, fix, `case-${n++}`, {
              command: text,
              side_effects: ["DELETES_FILES"],
            });
            assert.equal(survived, true);
          });
        }
      }
    }
  } finally {
    for (const server of started) await server.session.close();
    await Deno.remove(fix.base, { recursive: true });
  }
});

linux.test("issue 13: the ordinary-command table still runs under every list and shell", async (t) => {
  const fix = await fixture();
  const started = await servers(fix);
  try {
    let n = 0;
    for (const server of started) {
      for (const command of ORDINARY) {
        await t.step(`${server.label}: ${JSON.stringify(command)}`, async () => {
          const { reply } = await run(server, fix, `ordinary-${n++}`, {
            command,
            side_effects: ["NONE"],
          });
          assert.equal(reply.payload.status, "completed", `${command} → ${reply.text}`);
        });
      }
    }
  } finally {
    for (const server of started) await server.session.close();
    await Deno.remove(fix.base, { recursive: true });
  }
});
