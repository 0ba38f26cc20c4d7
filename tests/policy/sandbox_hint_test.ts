import assert from "node:assert/strict";
import { sandboxHint } from "../../src/policy/sandbox_hint.ts";
import type { SandboxProfile } from "../../src/policy/sandbox_profile.ts";

const READ_ONLY: SandboxProfile = { filesystem: "read-only", network: false };
const WORKSPACE: SandboxProfile = { filesystem: "workspace-writable", network: false };
const ONLINE: SandboxProfile = { filesystem: "read-only", network: true };

const WRITE_MESSAGES = [
  "touch: cannot touch 'out.txt': Read-only file system",
  "sh: 1: cannot create out.txt: Read-only file system",
  "bash: line 1: out.txt: Read-only file system",
  "mkdir: cannot create directory 'build': Read-only file system",
  "rm: cannot remove 'a': Read-only file system",
  "OSError: [Errno 30] Read-only file system: 'x'",
  "Error: EROFS: read-only file system, open '/w/x'",
  "fatal: Unable to create '/w/.git/index.lock': Read-only file system",
  "touch: cannot touch 'out.txt': Permission denied",
  "mkdir: cannot create directory 'x': Permission denied",
  "Error: EACCES: permission denied, mkdir '/w/node_modules'",
  "touch: out.txt: Operation not permitted",
];

const NETWORK_MESSAGES = [
  "curl: (6) Could not resolve host: example.com",
  "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server",
  "ssh: Could not resolve hostname github.com: Temporary failure in name resolution",
  "wget: unable to resolve host address 'example.com'",
  "bash: connect: Connection refused",
  "bash: connect: Network is unreachable",
  "ping: example.com: Name or service not known",
  "Error: getaddrinfo ENOTFOUND registry.npmjs.org",
  "Error: connect ECONNREFUSED 127.0.0.1:5432",
  "fatal: unable to access 'https://github.com/x/y/': Could not resolve host: github.com",
  "ConnectionRefusedError: [Errno 111] Connection refused",
  "socket.gaierror: [Errno -3] Temporary failure in name resolution",
];

Deno.test("a refused write under a read-only profile names MODIFIES_WORKSPACE_FILES", async (t) => {
  for (const stderr of WRITE_MESSAGES) {
    await t.step(stderr, () => {
      assert.equal(
        sandboxHint(READ_ONLY, "declared", { exitCode: 1, stderr: `noise\n${stderr}\n` }),
        "The sandbox (read-only, no network) refused a write: only /tmp is writable; declare " +
          "MODIFIES_WORKSPACE_FILES (or DELETES_FILES) in side_effects to write in the workspace",
      );
    });
  }
});

Deno.test("a refused write under a workspace profile is a write outside the workspace", () => {
  const outcome = { exitCode: 1, stderr: "touch: cannot touch '/etc/x': Read-only file system" };
  assert.equal(
    sandboxHint(WORKSPACE, "declared", outcome),
    "The sandbox (workspace-writable, no network) refused a write outside the workspace: declare " +
      "MODIFIES_OUTSIDE_WORKSPACE in side_effects, which runs unconfined only if the operator " +
      "allows it (allow_unconfined)",
  );
  assert.equal(
    sandboxHint(WORKSPACE, "strict", outcome),
    "The sandbox (workspace-writable, no network) refused a write outside the workspace: the " +
      "sandbox is strict, so only the workspace and /tmp are writable whatever is declared",
  );
});

Deno.test("a failed connection or lookup without network names MAKES_NETWORK_REQUESTS", async (t) => {
  for (const stderr of NETWORK_MESSAGES) {
    await t.step(stderr, () => {
      assert.equal(
        sandboxHint(READ_ONLY, "declared", { exitCode: 7, stderr }),
        "The sandbox (read-only, no network) has no network: declare MAKES_NETWORK_REQUESTS in " +
          "side_effects to connect or resolve names (CHANGES_PACKAGES_OR_DEPENDENCIES for " +
          "package installs)",
      );
    });
    await t.step(`${stderr} (network on: no hint)`, () => {
      assert.equal(sandboxHint(ONLINE, "declared", { exitCode: 7, stderr }), null);
    });
  }
});

Deno.test("both hints when both happened", () => {
  const stderr =
    "touch: cannot touch 'x': Read-only file system\ncurl: (6) Could not resolve host: a";
  const hint = sandboxHint(READ_ONLY, "declared", { exitCode: 1, stderr });
  assert.match(hint ?? "", /MODIFIES_WORKSPACE_FILES.*; The sandbox .* MAKES_NETWORK_REQUESTS/);
});

Deno.test("no hint for successes, running commands or failures the profile does not explain", async (t) => {
  const cases: [string, number | null, string][] = [
    ["exit 0", 0, "touch: cannot touch 'x': Read-only file system"],
    ["still running", null, "Read-only file system"],
    ["a plain failure", 1, "grep: x: No such file or directory"],
    ["a read denied", 1, "cat: /root/secret: Permission denied"],
    ["an exec denied", 126, "sh: 1: ./run.sh: Permission denied"],
    ["nothing on stderr", 2, ""],
  ];
  for (const [name, exitCode, stderr] of cases) {
    await t.step(name, () => {
      assert.equal(sandboxHint(READ_ONLY, "declared", { exitCode, stderr }), null);
    });
  }
});

Deno.test("only the newest 64 KiB of stderr are scanned", () => {
  const old = "touch: cannot touch 'x': Read-only file system\n";
  const stderr = old + "y".repeat(64 * 1024);
  assert.equal(sandboxHint(READ_ONLY, "declared", { exitCode: 1, stderr }), null);
});
