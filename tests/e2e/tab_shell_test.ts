/**
 * The `tab-shell` profile end to end: tab-shell-mcp's four tools through the SDK client, with its
 * parameters, statuses, result shapes, truncation, config file and command line.
 */
import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { fileURLToPath } from "node:url";
import { isAlive, serverCommand, startServer } from "./harness.ts";
import { startTabShell } from "./tab_shell_harness.ts";
import { TAB_SHELL_CONFIG_URL, TAB_SHELL_FLAGS } from "../fixtures/tab_shell_seed.ts";
import { linux, posix } from "../os.ts";

const SEED_CONFIG = fileURLToPath(TAB_SHELL_CONFIG_URL);
const M = "[...truncated]";
const RESULT_KEYS = [
  "status",
  "exit_code",
  "stdout",
  "stderr",
  "execution_time",
  "truncated",
  "command",
];

/** The keys of the JSON text, in its order (the structured content is the same object). */
function textKeys(text: string): string[] {
  return Object.keys(JSON.parse(text));
}

Deno.test("tools/list with --tools tab-shell: the four tools, tab-shell-mcp's parameters", async () => {
  await using s = await startTabShell(["--timeout", "12.5", "--max-output-length", "1234"]);
  const { tools } = await s.client.listTools() as { tools: Tool[] };
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  assert.deepEqual([...byName.keys()], [
    "execute_shell_command",
    "get_task_status",
    "stop_background_task",
    "list_background_tasks",
  ]);
  const execute = byName.get("execute_shell_command")!;
  const properties = execute.inputSchema.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(properties), [
    "command",
    "background",
    "timeout",
    "shell",
    "cwd",
    "output_truncation_mode",
  ]);
  assert.deepEqual(execute.inputSchema.required, ["command"]);
  assert.equal(properties.command.description, "The shell command to execute.");
  assert.match(String(properties.background.description), /^If true, run in the background/);
  assert.match(
    String(properties.output_truncation_mode.description),
    /^How to truncate oversized output/,
  );
  assert.equal(properties.background.default, false);
  assert.equal(properties.shell.default, "");
  assert.match(execute.description ?? "", /default 12\.5 s/, "the configured timeout");
  assert.match(execute.description ?? "", /cut to 1234 characters, keeping the end/);
  assert.equal(execute.annotations?.destructiveHint, true);
  assert.equal(byName.get("get_task_status")?.annotations?.readOnlyHint, true);
  assert.equal(byName.get("list_background_tasks")?.annotations?.readOnlyHint, true);
  for (const tool of tools) assert.equal(tool.outputSchema?.type, "object", tool.name);
  const taskId = byName.get("get_task_status")?.inputSchema.properties?.task_id as {
    description: string;
  };
  assert.equal(taskId.description, "The task ID returned by execute_shell_command.");
});

Deno.test("--tools both serves both sets; the default serves ours", async () => {
  await using both = await startServer({ args: ["--tools", "both"] });
  const names = ((await both.client.listTools()).tools as Tool[]).map((tool) => tool.name);
  assert.deepEqual(names, [
    "execute",
    "read",
    "write",
    "wait",
    "stop",
    "ps",
    "cleanup",
    "search",
    "execute_shell_command",
    "get_task_status",
    "stop_background_task",
    "list_background_tasks",
  ]);
  await using ours = await startServer();
  assert.equal((await ours.client.listTools()).tools.length, 8);
  const missing = await ours.call("execute_shell_command", { command: "echo x" });
  assert.equal(missing.isError, true);
});

posix.test("foreground commands: success, error exit, signal, start failure", async (t) => {
  await using s = await startTabShell();
  await t.step("success", async () => {
    const reply = await s.call("execute_shell_command", { command: "echo hello" });
    assert.equal(reply.isError, false);
    assert.deepEqual(textKeys(reply.text), RESULT_KEYS);
    const { execution_time, ...rest } = reply.payload;
    assert.deepEqual(rest, {
      status: "success",
      exit_code: 0,
      stdout: "hello\n",
      stderr: "",
      truncated: false,
      command: "echo hello",
    });
    assert.equal(typeof execution_time, "number");
    assert.ok(execution_time >= 0 && Math.round(execution_time * 1000) === execution_time * 1000);
  });
  await t.step("error exit, with both streams", async () => {
    const reply = await s.call("execute_shell_command", {
      command: "echo out; echo err >&2; exit 3",
    });
    assert.equal(reply.isError, false, "a command that ran is a result, not a tool error");
    assert.equal(reply.payload.status, "error");
    assert.equal(reply.payload.exit_code, 3);
    assert.equal(reply.payload.stdout, "out\n");
    assert.equal(reply.payload.stderr, "err\n");
  });
  await t.step("a signal death is -N", async () => {
    const reply = await s.call("execute_shell_command", { command: "kill -9 $$" });
    assert.deepEqual([reply.payload.status, reply.payload.exit_code], ["error", -9]);
  });
  await t.step("a shell that does not exist cannot start", async () => {
    const reply = await s.call("execute_shell_command", {
      command: "true",
      shell: "/definitely/not/a/shell",
    });
    assert.equal(reply.isError, true);
    assert.deepEqual(textKeys(reply.text), RESULT_KEYS);
    assert.equal(reply.payload.status, "error");
    assert.equal(reply.payload.exit_code, null);
    assert.match(reply.payload.stderr, /^Failed to start command: .*\/definitely\/not\/a\/shell/);
  });
  await t.step("arguments are strict: a timeout must be positive, no unknown keys", async () => {
    for (const args of [{ command: "true", timeout: 0 }, { command: "true", env: { A: "1" } }]) {
      const reply = await s.call("execute_shell_command", args);
      assert.equal(reply.isError, true);
      assert.match(reply.text, /validation/i);
    }
  });
  await t.step("cwd and an explicit shell", async () => {
    const reply = await s.call("execute_shell_command", {
      command: "pwd; echo ${BASH_VERSION:+bash}",
      cwd: "/",
      shell: "bash",
    });
    assert.equal(reply.payload.stdout, "/\nbash\n");
  });
});

linux.test("a foreground timeout kills the whole process group and keeps the output", async () => {
  // 2 s leaves the shell ample time to print before the kill, even on a loaded machine.
  await using s = await startTabShell(["--timeout", "2"]);
  // No timeout in the call: --timeout (seconds) is the default.
  const reply = await s.call("execute_shell_command", {
    command: "sleep 60 & echo $!; echo started; wait",
  });
  assert.equal(reply.payload.status, "timeout");
  assert.equal(reply.payload.exit_code, null);
  const [pid, line] = reply.payload.stdout.split("\n");
  assert.equal(line, "started", "output before the timeout is kept (tab-shell-mcp lost it)");
  assert.equal(isAlive(Number(pid)), false, "the background child is gone too");
  const quick = await s.call("execute_shell_command", { command: "sleep 60", timeout: 0.2 });
  assert.equal(quick.payload.status, "timeout");
});

Deno.test("rejection by the lists and the other policy layers", async (t) => {
  await using s = await startTabShell(["--blacklist", "rm,bash", "--allowed-cwd", "/tmp"]);
  await t.step("a blacklisted name anywhere in the line", async () => {
    const reply = await s.call("execute_shell_command", { command: "echo ok && rm -rf /tmp/x" });
    assert.equal(reply.isError, true);
    assert.deepEqual(textKeys(reply.text), ["status", "reason"]);
    assert.equal(reply.payload.status, "rejected");
    assert.match(reply.payload.reason, /Command 'rm' is blocked by the blacklist/);
  });
  await t.step("the shell parameter is checked too", async () => {
    const reply = await s.call("execute_shell_command", { command: "true", shell: "/bin/bash" });
    assert.equal(reply.payload.status, "rejected");
    assert.match(reply.payload.reason, /bash/);
  });
  await t.step("a cwd outside the allowed roots", async () => {
    const reply = await s.call("execute_shell_command", { command: "true", cwd: "/etc" });
    assert.equal(reply.payload.status, "rejected");
  });
  await t.step("a rejected background command creates no task", async () => {
    const reply = await s.call("execute_shell_command", { command: "rm x", background: true });
    assert.equal(reply.payload.status, "rejected");
    const list = await s.call("list_background_tasks");
    assert.equal(list.text, "[]");
  });
});

Deno.test("the whitelist: only listed names run", async () => {
  await using s = await startTabShell(["--whitelist", "echo"]);
  const ok = await s.call("execute_shell_command", { command: "echo fine" });
  assert.equal(ok.payload.status, "success");
  const refused = await s.call("execute_shell_command", { command: "echo hi & cat /etc/passwd" });
  assert.equal(refused.payload.status, "rejected");
  assert.match(refused.payload.reason, /^Command 'cat' is not in the whitelist/);
});

posix.test("truncation counts characters and keeps the tail or the head", async (t) => {
  await using s = await startTabShell(["--max-output-length", "20"]);
  const emoji = "for i in $(seq 30); do printf '\u{1F600}'; done";
  await t.step("tail (tab-shell-mcp's default)", async () => {
    const reply = await s.call("execute_shell_command", { command: emoji });
    assert.equal(reply.payload.truncated, true);
    assert.equal(reply.payload.stdout, `${M}${"\u{1F600}".repeat(6)}`);
  });
  await t.step("head, per call", async () => {
    const reply = await s.call("execute_shell_command", {
      command: "printf '\u00e9%.0s' $(seq 40)",
      output_truncation_mode: "head",
    });
    assert.equal(reply.payload.stdout, `${"\u00e9".repeat(6)}${M}`);
  });
  await t.step("stdout first, stderr guaranteed a third", async () => {
    const reply = await s.call("execute_shell_command", {
      command: "printf 'a%.0s' $(seq 50); printf 'b%.0s' $(seq 100) >&2",
    });
    // Budgets 14 and 6 leave no room for the marker: plain text, not a marker fragment.
    assert.equal(reply.payload.stdout, "a".repeat(14));
    assert.equal(reply.payload.stderr, "b".repeat(6));
  });
  await t.step("20 characters of 40 bytes fit", async () => {
    const reply = await s.call("execute_shell_command", {
      command: "printf '\u00fc%.0s' $(seq 20)",
    });
    assert.equal(reply.payload.truncated, false);
    assert.equal([...reply.payload.stdout].length, 20);
  });
});

posix.test("tab-shell-mcp's example config.yaml, as is", async (t) => {
  await using s = await startTabShell(["--config", SEED_CONFIG], { SHELL: "/bin/bash" });
  await t.step('shell "" is $SHELL', async () => {
    const reply = await s.call("execute_shell_command", { command: "echo ${BASH_VERSION:+bash}" });
    assert.equal(reply.payload.stdout, "bash\n");
  });
  await t.step("its blacklist", async () => {
    const reply = await s.call("execute_shell_command", { command: "dd if=/dev/zero of=x" });
    assert.equal(reply.payload.status, "rejected");
  });
  await t.step("its non_interactive_env", async () => {
    const reply = await s.call("execute_shell_command", {
      command: 'echo "$CI $GIT_TERMINAL_PROMPT $DEBIAN_FRONTEND ${PAGER:-unset}"',
    });
    assert.equal(reply.payload.stdout, "true 0 noninteractive unset\n");
  });
  assert.equal(s.stderr().includes("Invalid"), false, s.stderr());
});

posix.test("tab-shell-mcp's example command line starts the server", async () => {
  await using s = await startTabShell(TAB_SHELL_FLAGS);
  const refused = await s.call("execute_shell_command", { command: "mkfs /dev/null" });
  assert.equal(refused.payload.status, "rejected");
  const big = await s.call("execute_shell_command", {
    command: "head -c 150000 /dev/zero | tr '\\0' x; echo END",
  });
  assert.equal(big.payload.truncated, true);
  assert.equal(big.payload.stdout.length, 100_000);
  assert.ok(big.payload.stdout.startsWith(M) && big.payload.stdout.endsWith("xEND\n"));
});

Deno.test("a name list under a $SHELL that does not read bash refuses to start", async () => {
  const { command, args } = serverCommand(["--tools", "tab-shell", "--blacklist", "rm"]);
  const output = await new Deno.Command(command, {
    args,
    env: { SHELL: "/usr/bin/fish" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 2);
  assert.match(
    new TextDecoder().decode(output.stderr),
    /Shell '\/usr\/bin\/fish' \(\$SHELL, the shell of execute_shell_command\) does not read bash syntax/,
  );
});
