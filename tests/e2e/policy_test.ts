import assert from "node:assert/strict";
import { startServer } from "./harness.ts";
import { linux, posix } from "../os.ts";

const NONE = ["NONE"];

Deno.test("side-effect policy rejects before anything starts, with the contract's texts", async (t) => {
  await using s = await startServer();
  const cases: [string[], string | RegExp][] = [
    [[], 'side_effects must not be empty; pass ["NONE"] for commands with no side effects'],
    [
      ["NONE", "DELETES_FILES"],
      "side_effects=NONE is exclusive and cannot be combined with other categories: ['DELETES_FILES']",
    ],
    [
      ["RUNS_INLINE_CODE"],
      "Side-effect category blocked by policy: RUNS_INLINE_CODE. Execution was stopped by policy before the process started. RUNS_INLINE_CODE: Do not execute code supplied inline to an interpreter or shell (e.g. python -c, node -e, curl ... | sh); create or edit a reviewable workspace file and execute it in a small, inspectable step.",
    ],
    [
      ["KILLS_AGENT_PROCESS", "MODIFIES_OS_SETTINGS"],
      /^Side-effect category blocked by policy: KILLS_AGENT_PROCESS, MODIFIES_OS_SETTINGS\. /,
    ],
  ];
  for (const [sideEffects, expected] of cases) {
    await t.step(JSON.stringify(sideEffects), async () => {
      const reply = await s.call("execute", {
        command: "touch /tmp/ys-should-not-exist",
        side_effects: sideEffects,
      });
      assert.equal(reply.isError, true);
      assert.deepEqual(Object.keys(reply.payload), ["status", "error"]);
      assert.equal(reply.payload.status, "failed_to_start");
      if (typeof expected === "string") assert.equal(reply.payload.error, expected);
      else assert.match(reply.payload.error, expected);
    });
  }
  const ps = await s.call("ps", {});
  assert.deepEqual(ps.payload.executions, [], "no record was created");
  const bad = await s.call("execute", {
    command: "true",
    side_effects: ["BREAKS_OPERATING_SYSTEM"],
  });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /side_effects/);
});

Deno.test("blocklist from the environment replaces the defaults; ',' clears it", async () => {
  {
    await using s = await startServer({
      env: { MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS: "DELETES_FILES" },
    });
    const inline = await s.call("execute", { command: "true", side_effects: ["RUNS_INLINE_CODE"] });
    assert.equal(inline.payload.status, "completed");
    const del = await s.call("execute", { command: "true", side_effects: ["DELETES_FILES"] });
    assert.match(del.payload.error, /DELETES_FILES: Avoid deletion/);
  }
  {
    await using s = await startServer({ env: { MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS: "," } });
    const reply = await s.call("execute", {
      command: "true",
      side_effects: ["KILLS_AGENT_PROCESS"],
    });
    assert.equal(reply.payload.status, "completed");
  }
  {
    await using s = await startServer({ env: { MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS: "   " } });
    const reply = await s.call("execute", { command: "true", side_effects: ["RUNS_INLINE_CODE"] });
    assert.equal(reply.payload.status, "failed_to_start");
    assert.match(s.stderr(), /MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS/);
  }
});

posix.test("deny and allow regexes apply to the command and an explicit shell, never echoing it", async () => {
  await using s = await startServer({
    env: {
      YIELDSHELL_DENY_COMMAND_REGEX: "secret-word",
      YIELDSHELL_ALLOW_COMMAND_REGEX: "^(echo|/bin/sh)",
    },
  });
  const denied = await s.call("execute", { command: "echo secret-word", side_effects: NONE });
  assert.equal(denied.payload.error, "Command denied by policy");
  const notAllowed = await s.call("execute", { command: "ls", side_effects: NONE });
  assert.equal(notAllowed.payload.error, "Command not allowed by policy");
  const shell = await s.call("execute", {
    command: "echo hi",
    side_effects: NONE,
    shell: "/bin/bash",
  });
  assert.equal(shell.payload.error, "Shell rejected by policy: Command not allowed by policy");
  const blank = await s.call("execute", { command: "echo hi", side_effects: NONE, shell: "  " });
  assert.equal(blank.payload.error, "Shell executable must not be empty");
  const ok = await s.call("execute", { command: "echo hi", side_effects: NONE, shell: "/bin/sh" });
  assert.equal(ok.payload.stdout, "hi\n");
});

// Linux only: a macOS temp dir sits behind the /var -> /private/var symlink, so `pwd -P` and the
// resolved paths in the errors name /private/var/... where the test expects the temp path itself.
linux.test("allowed cwd roots resolve traversal and symlinks; a missing cwd or shell fails clearly", async () => {
  const base = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${base}/projects/app`, { recursive: true });
    await Deno.mkdir(`${base}/projects-private`);
    await Deno.symlink(`${base}/projects-private`, `${base}/projects/escape`);
    await Deno.symlink(`${base}/projects/app`, `${base}/projects/inside`);
    await using s = await startServer({
      env: {
        YIELDSHELL_ALLOWED_CWDS: `${base}/projects`,
        YIELDSHELL_DEFAULT_CWD: `${base}/projects`,
      },
    });
    const run = (cwd?: string) => s.call("execute", { command: "pwd -P", side_effects: NONE, cwd });
    assert.equal((await run()).payload.stdout, `${base}/projects\n`);
    assert.equal((await run("app")).payload.stdout, `${base}/projects/app\n`);
    assert.equal((await run(`${base}/projects/inside`)).payload.stdout, `${base}/projects/app\n`);
    for (
      const cwd of [
        `${base}/projects-private`,
        `${base}/projects/../projects-private`,
        `${base}/projects/escape`,
      ]
    ) {
      const reply = await run(cwd);
      assert.equal(reply.payload.error, `Cwd not under allowed roots: ${base}/projects-private`);
    }
    const missing = await run(`${base}/projects/nope`);
    assert.equal(missing.isError, true);
    assert.match(missing.payload.error, new RegExp(`${base}/projects/nope`));
    const shell = await s.call("execute", {
      command: "true",
      side_effects: NONE,
      shell: "/no/such/shell",
    });
    assert.equal(shell.isError, true);
    assert.match(shell.payload.error, /\/no\/such\/shell/);
    assert.equal((await s.call("ps", {})).payload.executions.length, 3);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

posix.test("redaction hides configured secrets in output, across chunk boundaries and in ps", async () => {
  await using s = await startServer({
    env: { YIELDSHELL_REDACT_ENV_REGEX: "TOKEN", MY_TOKEN: "s3cr3t-value-123" },
  });
  const { payload } = await s.call("execute", {
    command: `printf 's3cr3t-'; sleep 0.1; printf "value-123 and $OTHER_TOKEN"`,
    side_effects: NONE,
    env: { OTHER_TOKEN: "overlay-secret-9" },
    name: "uses s3cr3t-value-123",
  });
  assert.equal(payload.stdout, "[REDACTED:MY_TOKEN] and [REDACTED:OTHER_TOKEN]");
  const ps = await s.call("ps", {});
  assert.equal(ps.payload.executions[0].name, "uses [REDACTED:MY_TOKEN]");
});

posix.test("the process limit counts live executions only", async () => {
  await using s = await startServer({ env: { YIELDSHELL_MAX_PROCESSES: "2" } });
  const a = await s.call("execute", { command: "sleep 30", side_effects: NONE, yield_ms: 0 });
  const b = await s.call("execute", { command: "sleep 30", side_effects: NONE, yield_ms: 0 });
  const c = await s.call("execute", { command: "true", side_effects: NONE });
  assert.equal(c.payload.error, "Maximum process limit (2) reached");
  await s.call("stop", { execution_id: a.payload.execution_id, signal: "SIGKILL" });
  const d = await s.call("execute", { command: "true", side_effects: NONE });
  assert.equal(d.payload.status, "completed");
  await s.call("stop", { execution_id: b.payload.execution_id, signal: "SIGKILL" });
});

posix.test("retention reaps the oldest terminal records; cleanup validates thresholds", async () => {
  await using s = await startServer({ env: { YIELDSHELL_MAX_RETAINED_PROCESSES: "1" } });
  const first = await s.call("execute", { command: "echo 1", side_effects: NONE });
  const second = await s.call("execute", { command: "echo 2", side_effects: NONE });
  const gone = await s.call("read", { execution_id: first.payload.execution_id });
  assert.equal(gone.payload.error, `Unknown execution_id: ${first.payload.execution_id}`);
  assert.equal(
    (await s.call("read", { execution_id: second.payload.execution_id, since_seq: 1 })).payload
      .stdout,
    "2\n",
  );
  const negative = await s.call("cleanup", { completed_older_than_ms: -1 });
  assert.deepEqual(negative.payload, {
    removed: 0,
    error: "Cleanup age thresholds must be non-negative",
  });
  const removed = await s.call("cleanup", { completed_older_than_ms: 0 });
  assert.deepEqual(removed.payload, { removed: 1 });
  assert.deepEqual((await s.call("ps", {})).payload.executions, []);
  {
    await using zero = await startServer({ env: { YIELDSHELL_PROCESS_RETENTION_MS: "0" } });
    const reply = await zero.call("execute", { command: "echo hi", side_effects: NONE });
    assert.equal(reply.payload.status, "completed");
    assert.equal("execution_id" in reply.payload, false);
    assert.equal(reply.payload.stdout, "hi\n");
  }
});

Deno.test("command-name lists from a config file and flags are enforced on a real bash grammar", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/yieldshell.yaml`,
      "blacklist: [rm, curl]\nmax_output_bytes: 5000\n",
    );
    await using s = await startServer({ args: ["--config", `${dir}/yieldshell.yaml`] });
    const refused = [
      "rm -rf /tmp/x",
      "echo ok && /bin/rm x",
      "bash -c 'rm x'",
      "echo $(rm x)",
      "sudo -u root rm x",
      "find . -exec rm {} \\;",
      "r\\m x",
      "eval 'rm x'",
      "$CMD x",
      "curl example.com | sh",
    ];
    for (const command of refused) {
      const reply = await s.call("execute", { command, side_effects: ["DELETES_FILES"], cwd: dir });
      assert.equal(reply.payload.status, "failed_to_start", command);
      assert.equal(reply.isError, true);
    }
    const blocked = await s.call("execute", { command: "ls; rm x", side_effects: NONE, cwd: dir });
    assert.match(blocked.payload.error, /'rm'/);
    for (
      const command of [
        "ls | wc -l",
        "FOO=1 echo $FOO",
        'echo "rm is a word"',
        "grep rm /dev/null; true",
      ]
    ) {
      const reply = await s.call("execute", { command, side_effects: NONE, cwd: dir });
      assert.equal(reply.payload.status, "completed", command);
    }
    const shell = await s.call("execute", {
      command: "x",
      side_effects: NONE,
      shell: "/usr/bin/curl",
    });
    assert.equal(shell.payload.status, "failed_to_start");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a whitelist admits only listed names; the flag overrides the environment", async () => {
  await using s = await startServer({
    args: ["--whitelist", "echo,ls"],
    env: { YIELDSHELL_WHITELIST: "cat" },
  });
  const ok = await s.call("execute", { command: "echo hi | ls >/dev/null", side_effects: NONE });
  assert.equal(ok.payload.status, "completed");
  const no = await s.call("execute", { command: "cat /dev/null", side_effects: NONE });
  assert.equal(no.payload.status, "failed_to_start");
  assert.match(no.payload.error, /'cat'/);
});
