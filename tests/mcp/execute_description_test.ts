import assert from "node:assert/strict";
import { describeShell } from "../../src/mcp/tools/execute_description.ts";

Deno.test("describeShell names the shell and what a plain sh lacks", () => {
  const sh = describeShell("/bin/sh");
  assert.match(sh, /^Runs the command with \/bin\/sh -c /);
  assert.match(sh, /dash on Debian and Ubuntu/);
  assert.match(sh, /cd and export do not persist/);
  assert.match(sh, /cmd & holds the call/);
  const bash = describeShell("/usr/bin/bash");
  assert.match(bash, /^Runs the command with \/usr\/bin\/bash -c /);
  assert.doesNotMatch(bash, /dash|POSIX sh/);
  assert.match(bash, /setsid/);
});

Deno.test("describeShell on Windows shells: no -c, no POSIX job notes", () => {
  for (const shell of ["cmd.exe", "C:\\Windows\\System32\\cmd.exe", "pwsh"]) {
    const text = describeShell(shell);
    assert.ok(text.startsWith(`Runs the command with ${shell} (shell picks another).`), text);
    assert.doesNotMatch(text, / -c|setsid|dash/);
    assert.match(text, /cd and export do not persist/);
  }
});
