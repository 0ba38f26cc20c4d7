import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import denoJson from "../../deno.json" with { type: "json" };
import { outputName, toHex } from "../../scripts/compile_plan.ts";
import { binaryProblem } from "../../scripts/smoke/binary_problem.ts";
import { isMachO, listedSum } from "../../scripts/smoke/file_checks.ts";
import { descendants, parseProcessTable } from "../../scripts/smoke/process_table.ts";
import { smokeCommands } from "../../scripts/smoke/smoke_commands.ts";
import { linux, posix } from "../os.ts";
import { HOST_TARGET, makeFakeRelease } from "./fake_release.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface TaskRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `deno task test:binary ARGS` as the README and the release workflow run it. */
async function testBinary(args: string[], env: Record<string, string> = {}): Promise<TaskRun> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "test:binary", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", YIELDSHELL_BIN: "", ...env },
    stdin: "null",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}

/**
 * A stand-in for a compiled binary: a script that starts main.ts as the README does and takes
 * the binary's arguments (no binary can be built here: denort is out of reach).
 */
async function standIn(dir: string, lines: string[] = []): Promise<string> {
  const path = join(dir, "yieldshell");
  const deno = Deno.execPath();
  await Deno.writeTextFile(
    path,
    [
      "#!/bin/sh",
      ...lines,
      `exec '${deno}' run -q -P=server --config '${ROOT}deno.json' '${ROOT}main.ts' "$@"`,
      "",
    ].join("\n"),
  );
  await Deno.chmod(path, 0o755);
  return path;
}

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "yieldshell-smoke-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("test:binary with no binary says nothing was run and fails", async (t) => {
  await t.step("none named", async () => {
    const run = await testBinary([]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^Cannot smoke-test the binary: no binary was named; pass its path/);
    assert.match(run.stderr, /Nothing was run: smoke failed/);
    assert.doesNotMatch(run.stdout, /passed/);
  });
  await t.step("a path that does not exist, by argument and by YIELDSHELL_BIN", async () => {
    for (
      const [args, env] of [[["dist/nope"], {}], [[], { YIELDSHELL_BIN: "dist/nope" }]] as const
    ) {
      const run = await testBinary([...args], env);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /dist[/\\]nope does not exist\nNothing was run: smoke failed/);
    }
  });
  await t.step("bad arguments", async () => {
    const run = await testBinary(["a", "b"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^Name one binary at most\n\nUsage: deno task test:binary/);
  });
});

Deno.test("binaryProblem", () => {
  assert.match(binaryProblem({ path: undefined, info: null })!, /^no binary was named/);
  assert.match(binaryProblem({ path: "", info: null })!, /^no binary was named/);
  assert.equal(binaryProblem({ path: "x", info: null }), "x does not exist");
  assert.equal(
    binaryProblem({ path: "x", info: { isFile: false, mode: 0o755 } }),
    "x is not a file",
  );
  assert.equal(
    binaryProblem({ path: "x", info: { isFile: true, mode: 0o644 } }),
    "x is not executable; run chmod +x x",
  );
  assert.equal(binaryProblem({ path: "x", info: { isFile: true, mode: 0o700 } }), null);
  assert.equal(binaryProblem({ path: "x.exe", info: { isFile: true, mode: null } }), null);
});

Deno.test("process tables: zombies are dead, trees are followed down", () => {
  const table = parseProcessTable(
    "  PID  PPID STAT\n    1     0 Ss\n   10     1 S\n   11    10 S\n   12    11 R+\n" +
      "   13    10 Z\n   14     1 S\n  bad line\n",
  );
  assert.deepEqual(table.map((entry) => entry.pid), [1, 10, 11, 12, 14]);
  assert.deepEqual(descendants(table, 10), [10, 11, 12]);
  assert.deepEqual(descendants(table, 13), []);
  // Windows' CIM listing has no state column.
  assert.deepEqual(parseProcessTable("4 0\r\n208 4\r\n"), [{ pid: 4, ppid: 0 }, {
    pid: 208,
    ppid: 4,
  }]);
});

Deno.test("the smoke commands differ by shell", () => {
  assert.equal(smokeCommands("linux").expected, "smoke 42");
  assert.deepEqual(smokeCommands("linux"), smokeCommands("darwin"));
  assert.match(smokeCommands("windows").expand, /%OS%/);
});

posix.test("test:binary passes a real server standing in for the binary", async () => {
  await withTempDir(async (dir) => {
    const run = await testBinary([await standIn(dir)]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (
      const check of [
        `--version prints yieldshell ${denoJson.version}`,
        "--help prints the usage",
        "initialize over stdio",
        "tools/list lists the eight tools",
        "execute runs a command through the default shell",
        "a background execution is stopped with its whole process tree",
        "stdin EOF shuts the server down with no child left behind",
      ]
    ) {
      assert.ok(run.stdout.includes(`ok   ${check}`), `${check}:\n${run.stdout}`);
    }
    assert.match(run.stdout, /\nsmoke: 7 passed, 0 failed, 0 skipped\n$/);
  });
});

posix.test("test:binary fails a binary whose version is not the tag", async () => {
  await withTempDir(async (dir) => {
    const run = await testBinary(["--expect-version", "v9.9.9", await standIn(dir)]);
    assert.equal(run.code, 1);
    assert.match(
      run.stdout,
      /FAIL --version prints yieldshell 9\.9\.9: expected "yieldshell 9\.9\.9" and exit code 0, got exit code 0; stdout: "yieldshell /,
    );
    assert.match(run.stdout, /SKIP stdin EOF shuts the server down/);
    assert.match(run.stdout, /smoke: 0 passed, 1 failed, 6 skipped/);
    assert.match(run.stderr, /No check passed: smoke failed/);
  });
});

posix.test("test:binary fails a binary that is not executable, and one that dies at start", async () => {
  await withTempDir(async (dir) => {
    const path = await standIn(dir);
    await Deno.chmod(path, 0o644);
    const refused = await testBinary([path]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is not executable; run chmod \+x /);

    // Answers --version and --help, then exits instead of serving MCP.
    const dies = await standIn(dir, ['case "$1" in --*) ;; *) echo "boom" >&2; exit 3 ;; esac']);
    const run = await testBinary([dies]);
    assert.equal(run.code, 1);
    assert.ok(run.stdout.includes("ok   --help prints the usage"));
    assert.match(run.stdout, /FAIL initialize over stdio: .*server stderr: boom/);
    assert.match(run.stdout, /smoke: 2 passed, 1 failed, 4 skipped/);
  });
});

linux.test("test:binary fails a server that leaves a child behind on stdin EOF", async () => {
  await withTempDir(async (dir) => {
    // A shell that, for its third command (the shutdown check's tree), first starts a sleep in
    // a new session and without the execution token, out of the server's reach. It drops the
    // token by exec before it forks, so no child ever carries it, not even for an instant; and
    // it counts with redirections only, so it starts no process that could pass for a child.
    const shell = join(dir, "leaky_sh");
    const [first, second, ready] = ["first", "second", "ready"].map((name) => join(dir, name));
    await Deno.writeTextFile(
      shell,
      [
        "#!/bin/sh",
        `if [ -n "$LEAK" ]; then`,
        `  setsid /bin/sh -c ": > '${ready}'; exec sleep 300" </dev/null >/dev/null 2>&1 &`,
        `  while [ ! -e '${ready}' ]; do :; done`,
        `elif [ -e '${second}' ]; then`,
        `  exec env -i PATH=/usr/bin:/bin LEAK=1 /bin/sh '${join(dir, "leaky_sh")}' "$@"`,
        `elif [ -e '${first}' ]; then`,
        `  : > '${second}'`,
        "else",
        `  : > '${first}'`,
        "fi",
        'exec /bin/sh "$@"',
        "",
      ].join("\n"),
    );
    await Deno.chmod(shell, 0o755);
    const binary = await standIn(dir, [`export YIELDSHELL_SHELL='${shell}'`]);
    const run = await testBinary(["--leftover-grace-ms", "1000", binary]);
    assert.equal(run.code, 1, run.stdout);
    assert.ok(
      run.stdout.includes("ok   a background execution is stopped with its whole process tree"),
    );
    assert.match(
      run.stdout,
      /FAIL stdin EOF shuts the server down with no child left behind: children were left behind after the server exited within 1 s: \d+/,
    );
    assert.match(run.stdout, /smoke: 6 passed, 1 failed, 0 skipped/);
  });
});

posix.test("test:binary checks the binary is the release asset SHA256SUMS lists", async (t) => {
  await withTempDir(async (dir) => {
    const binary = await standIn(dir);
    const digest = toHex(await crypto.subtle.digest("SHA-256", await Deno.readFile(binary)));
    const sums = join(dir, "SHA256SUMS");
    await t.step("the listed asset passes, then the rest runs", async () => {
      await Deno.writeTextFile(
        sums,
        `${"0".repeat(64)}  yieldshell-other\n${digest}  yieldshell-x\n`,
      );
      const run = await testBinary(["--sums", sums, "--asset", "yieldshell-x", binary]);
      assert.equal(run.code, 0, run.stdout);
      assert.ok(
        run.stdout.includes(
          `ok   is the release asset yieldshell-x listed in SHA256SUMS: ${digest}`,
        ),
      );
      assert.match(run.stdout, /smoke: 8 passed, 0 failed, 0 skipped/);
    });
    await t.step("another asset's line fails first", async () => {
      const run = await testBinary(["--sums", sums, "--asset", "yieldshell-other", binary]);
      assert.equal(run.code, 1);
      assert.match(
        run.stdout,
        /FAIL is the release asset yieldshell-other .*: it is another asset/,
      );
      assert.match(run.stdout, /smoke: 0 passed, 1 failed, 7 skipped/);
    });
    await t.step("an asset the file does not list", async () => {
      const run = await testBinary(["--sums", sums, "--asset", "yieldshell-none", binary]);
      assert.equal(run.code, 1);
      assert.match(run.stdout, /has no line for yieldshell-none/);
    });
    await t.step("--sums without --asset", async () => {
      const run = await testBinary(["--sums", sums, binary]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /^Pass --sums and --asset together/);
    });
  });
});

Deno.test("listedSum and isMachO", async () => {
  const digest = "A".repeat(64);
  assert.equal(listedSum(`${digest} *yieldshell-x.exe\r\n`, "yieldshell-x.exe"), "a".repeat(64));
  assert.equal(listedSum(`${digest}  yieldshell-x\n`, "yieldshell-y"), null);
  await withTempDir(async (dir) => {
    const script = join(dir, "script");
    await Deno.writeTextFile(script, "#!/bin/sh\n");
    assert.equal(await isMachO(script), false);
    const machO = join(dir, "macho");
    await Deno.writeFile(machO, new Uint8Array([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]));
    assert.equal(await isMachO(machO), true);
    await Deno.writeFile(machO, new Uint8Array([0xcf]));
    assert.equal(await isMachO(machO), false);
  });
});

posix.test("the release's smoke job, replayed: install.sh from the release, then test:binary", async () => {
  await withTempDir(async (dir) => {
    const serve = `exec '${Deno.execPath()}' run -q -P=server --config '${ROOT}deno.json' ` +
      `'${ROOT}main.ts' "$@"`;
    const release = await makeFakeRelease(join(dir, "release"), { [HOST_TARGET]: serve });
    const tag = `v${denoJson.version}`;
    const bin = join(dir, "bin");
    const install = await new Deno.Command("sh", {
      args: [join(ROOT, "install.sh"), "--base-url", release.url, "--dir", bin, "--version", tag],
      stdin: "null",
    }).output();
    assert.equal(install.code, 0, new TextDecoder().decode(install.stderr));
    const asset = outputName(HOST_TARGET);
    const run = await testBinary(
      ["--expect-version", tag, "--sums", join(release.dir, "SHA256SUMS"), "--asset", asset],
      { YIELDSHELL_BIN: join(bin, "yieldshell") },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(run.stdout.includes(`ok   is the release asset ${asset} listed in SHA256SUMS`));
    assert.match(run.stdout, /smoke: 8 passed, 0 failed, 0 skipped\n$/);
  });
});
