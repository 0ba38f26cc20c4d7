import assert from "node:assert/strict";
import { simpleExec } from "../../src/platform/simple_exec.ts";

const executables = new Set(["/usr/bin/sleep", "/bin/ls", "/work/bin/tool", "/work/./run.sh"]);
const lookup = {
  cwd: "/work",
  path: "/usr/local/bin:/usr/bin:/bin",
  isExecutable: (path: string) => executables.has(path),
};

Deno.test("simpleExec execs a lone plain command found on PATH, and leaves everything else", async (t) => {
  const cases: [string, string][] = [
    ["sleep 30", "exec sleep 30"],
    ["  sleep\t30 ", "exec   sleep\t30 "],
    ["ls -la /tmp", "exec ls -la /tmp"],
    ["/work/bin/tool --flag=value a,b:c@d%e+f", "exec /work/bin/tool --flag=value a,b:c@d%e+f"],
    ["./run.sh", "exec ./run.sh"],
    ["bin/tool", "exec bin/tool"],
    // Builtins and keywords would become programs of the same name (or fail).
    ["echo hello", "echo hello"],
    ["true", "true"],
    ["test -f x", "test -f x"],
    ["exec sleep 30", "exec sleep 30"],
    ["cd /tmp", "cd /tmp"],
    // Not found: the shell's own "not found" message must stay.
    ["nosuchcommand 1", "nosuchcommand 1"],
    ["nosuch/tool", "nosuch/tool"],
    // Anything the shell would expand, split, redirect or chain.
    ["sleep 30 &", "sleep 30 &"],
    ["sleep 30; ls", "sleep 30; ls"],
    ["ls | cat", "ls | cat"],
    ["ls > out", "ls > out"],
    ["ls *.ts", "ls *.ts"],
    ["ls ~", "ls ~"],
    ["ls $HOME", "ls $HOME"],
    ["ls 'a b'", "ls 'a b'"],
    ['ls "a"', 'ls "a"'],
    ["ls a\\ b", "ls a\\ b"],
    ["ls `pwd`", "ls `pwd`"],
    ["ls\nls", "ls\nls"],
    ["X=1 sleep 30", "X=1 sleep 30"],
    ["ls {a,b}", "ls {a,b}"],
    ["ls #comment", "ls #comment"],
    ["(sleep 30)", "(sleep 30)"],
    ["", ""],
  ];
  for (const [command, expected] of cases) {
    await t.step(JSON.stringify(command), () => {
      assert.equal(simpleExec(command, lookup), expected);
    });
  }
});

Deno.test("simpleExec leaves a PATH with relative entries, or none, to the shell", () => {
  assert.equal(simpleExec("sleep 1", { ...lookup, path: "bin:/usr/bin" }), "sleep 1");
  assert.equal(simpleExec("sleep 1", { ...lookup, path: undefined }), "sleep 1");
  assert.equal(simpleExec("sleep 1", { ...lookup, path: "/usr/bin:bin" }), "exec sleep 1");
});
