/**
 * Real interactive programs on the libc terminal backend, read through the terminal views:
 * the scenarios of issue 17 below the MCP layer.
 */
import assert from "node:assert/strict";
import {
  chooseView,
  detectAwaitingInput,
  encodeKey,
  PlainTextView,
  SecretInputs,
  TerminalScreen,
} from "../../src/terminal/mod.ts";
import { eventually, isAlive, processesWithMarker } from "../e2e/harness.ts";
import { linux } from "../os.ts";
import { type RunningPty, startPty } from "./pty_harness.ts";

const encoder = new TextEncoder();

/** The stream view of everything the program wrote so far. */
function streamText(run: RunningPty): string {
  const view = new PlainTextView();
  return view.push(run.text()) + view.partialLine;
}

async function screenOf(run: RunningPty, cols = 120, rows = 40): Promise<TerminalScreen> {
  const screen = new TerminalScreen({ cols, rows });
  await screen.write(run.bytes());
  return screen;
}

/** Processes of the test's program (by marker) whose command line is `args`. */
function processesRunning(run: RunningPty, args: string): number[] {
  return processesWithMarker(run.marker).filter((pid) => {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ").trim() === args;
    } catch {
      return false;
    }
  });
}

function pgidOf(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

linux.test("python3 without -i answers print(6*7) with 42 and waits at its prompt", async () => {
  await using run = startPty("exec python3 -q");
  await run.waitFor(">>> ");
  await run.type("print(6*7)\r");
  await run.waitFor(/\r\n42\r\n/);
  await eventually(
    async () => {
      using screen = await screenOf(run);
      const awaiting = detectAwaitingInput({
        ...run.pty.state(),
        idleMs: performance.now() - run.lastOutputAt(),
        cursorLine: screen.snapshot().cursorLine,
      });
      return awaiting.awaiting && awaiting.reason === "prompt";
    },
    20_000,
    "python's prompt reported as awaiting input",
  );
  assert.match(streamText(run), /^>>> print\(6\*7\)\n42\n>>> $/m);
  await run.pty.write(encoder.encode(encodeKey("C-d")));
  assert.deepEqual(await run.pty.exited, { exitCode: 0, signal: null });
});

linux.test("a real program's progress line, title and link reach the stream view as plain text", async () => {
  await using run = startPty(
    "printf '\\033]0;pwned\\007\\033]8;;https://evil.example\\033\\\\docs\\033]8;;\\033\\\\\\n'; " +
      "for p in 10 50 100; do printf '\\r\\033[2Kfetching %s%%' $p; done; echo",
  );
  await run.ended;
  assert.ok(run.text().includes("\x1b]0;pwned"), "the raw output keeps every sequence");
  assert.equal(streamText(run), "docs\nfetching 100%\n");
});

linux.test("top -n 1 renders a screen in the screen view, and the screen is the default view", async () => {
  await using run = startPty("top -n 1 -w 120", { env: { COLUMNS: "", LINES: "" } });
  await run.ended;
  assert.deepEqual(await run.pty.exited, { exitCode: 0, signal: null });
  using screen = await screenOf(run);
  const { text } = screen.snapshot();
  // The summary's first line may have scrolled away with the newline top prints on exit.
  assert.match(text, /^Tasks: +\d+ total/m);
  assert.match(text, /^MiB Mem :/m);
  assert.match(text, /PID\s+USER\s+PR\s+NI.*COMMAND/);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(text, /\x1b/);
  const stream = new PlainTextView();
  stream.push(run.text());
  assert.equal(stream.lossy, true, "top positions the cursor: the stream view cannot show it");
  assert.equal(chooseView(stream), "screen");
});

linux.test("C-c interrupts a sleep in the terminal's shell and the shell survives", async () => {
  await using run = startPty("exec bash --norc --noprofile -i", { env: { PS1: "$ " } });
  await run.waitFor("$ ");
  await run.type("sleep 1000\r");
  await eventually(() => processesRunning(run, "sleep 1000").length === 1, 20_000, "sleep");
  const [sleeper] = processesRunning(run, "sleep 1000");
  assert.notEqual(pgidOf(sleeper), run.pty.pid, "job control put sleep in a group of its own");
  assert.equal(run.pty.state().foregroundGroup, pgidOf(sleeper));
  const before = run.text().length;
  await run.pty.write(encoder.encode(encodeKey("C-c")));
  await eventually(() => !isAlive(sleeper), 20_000, "sleep interrupted");
  await run.waitFor("$ ", before);
  assert.equal(isAlive(run.pty.pid), true, "the shell survives");
  assert.equal(
    run.pty.state().foregroundGroup,
    run.pty.pid,
    "the shell is in the foreground again",
  );
  await run.type("echo alive-$((6*7))\r");
  await run.waitFor(/\ralive-42\r\n/);
  await run.pty.write(encoder.encode(encodeKey("C-d")));
  assert.equal((await run.pty.exited).signal, null);
});

linux.test("read -s is awaiting input with echo off, and the secret never shows", async () => {
  await using run = startPty(
    "read -s -p 'Password: ' pw; echo; echo \"got ${#pw} characters\"; sleep 1000",
    { shell: "/bin/bash" },
  );
  await run.waitFor("Password: ");
  await eventually(() => !run.pty.state().echo, 20_000, "echo off");
  const state = run.pty.state();
  assert.equal(state.canonical, true);
  assert.deepEqual(detectAwaitingInput({ ...state, idleMs: 0, cursorLine: "Password: " }), {
    awaiting: true,
    reason: "password",
  });
  const inputs = new SecretInputs();
  const typed = "hunter22-correct-horse\r";
  assert.equal(inputs.note(typed, state), true);
  await run.type(typed);
  await run.waitFor("got 22 characters");
  assert.deepEqual(inputs.secrets, [{ name: "TTY_INPUT", value: "hunter22-correct-horse" }]);
  assert.equal(run.text().includes("hunter22"), false, "no echo of the secret");
  assert.equal(run.pty.state().echo, true, "echo is back on after read -s");
});

linux.test("resize reaches the program: stty size", async () => {
  await using run = startPty("exec sh -i", { cols: 120, rows: 40, env: { PS1: "$ " } });
  await run.waitFor("$ ");
  await run.type("stty size\r");
  await run.waitFor("\r\n40 120\r\n");
  run.pty.resize(100, 30);
  await run.type("stty size\r");
  await run.waitFor("\r\n30 100\r\n");
  assert.throws(() => run.pty.resize(0, 10), /cols must be an integer from 1 to 65535: received 0/);
});

linux.test("a resize sends SIGWINCH to the foreground program", async () => {
  await using run = startPty(
    "trap 'echo winch $(stty size)' WINCH; echo trapped; while :; do sleep 0.05; done",
    { shell: "/bin/bash", cols: 120, rows: 40 },
  );
  await run.waitFor("trapped\r\n");
  run.pty.resize(77, 22);
  await run.waitFor("winch 22 77\r\n");
});

linux.test("killing the session leaves no process; the output then ends", async () => {
  const run = startPty("exec bash --norc --noprofile -i", { env: { PS1: "$ " } });
  try {
    await run.waitFor("$ ");
    await run.type("sleep 1001 & nohup sleep 1002 >/dev/null 2>&1 & sleep 1003\r");
    await eventually(
      () =>
        ["sleep 1001", "sleep 1002", "sleep 1003"].every((args) =>
          processesRunning(run, args).length === 1
        ),
      20_000,
      "three sleeps",
    );
    assert.equal(run.pty.signal("SIGKILL"), true);
    await run.pty.exited;
    await eventually(() => processesRunning(run, "sleep 1003").length === 0, 20_000, "fg job gone");
    assert.equal(
      processesRunning(run, "sleep 1002").length,
      1,
      "a nohup background job (its own group) outlives the leader's and foreground groups",
    );
    assert.equal(await run.pty.signalSession("SIGKILL"), true);
    await eventually(() => processesWithMarker(run.marker).length === 0, 20_000, "no process left");
    await run.ended;
  } finally {
    await run[Symbol.asyncDispose]();
  }
});

linux.test("spawning and closing terminals leaks no descriptor", async () => {
  const script = new URL("./fixtures/pty_descriptors.ts", import.meta.url).pathname;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script],
    cwd: new URL("../../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.equal(output.code, 0);
  const seen = JSON.parse(new TextDecoder().decode(output.stdout));
  // One master while each terminal is open, none after; each terminal also holds a wake pipe,
  // so a leak would add 20 masters and 40 pipe ends. Other runtime handles close lazily, so
  // the pipe count may only stay or fall.
  assert.deepEqual(seen.mastersDuring, Array(20).fill(1));
  assert.equal(seen.mastersAfter, 0);
  assert.ok(
    seen.pipesAfter <= seen.pipesBefore,
    `pipes: ${seen.pipesBefore} before, ${seen.pipesAfter} after`,
  );
});
