/** The terminal adapter through the core's port alone: real terminals, sessions, signals, tokens. */
import assert from "node:assert/strict";
import type { TerminalTree } from "../../src/core/terminal_port.ts";
import { currentPlatform } from "../../src/platform/mod.ts";
import { eventually, isAlive, marker, processesWithMarker } from "../e2e/harness.ts";
import { linux } from "../os.ts";
import { holdingLoop } from "./holding_loop.ts";

const decoder = new TextDecoder();

/** Starts `command` on a terminal through the platform's port, tagged with a fresh marker. */
function spawnTerminal(command: string) {
  const tag = marker();
  const tree = currentPlatform().terminals.spawn({
    shell: "/bin/bash",
    command,
    cwd: Deno.cwd(),
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", TEST_MARKER: tag },
    cols: 100,
    rows: 30,
  });
  let text = "";
  const drained = (async () => {
    for await (const chunk of tree.stdout) text += decoder.decode(chunk, { stream: true });
  })();
  return { tree, tag, text: () => text, drained };
}

/** Whether `pid` still has open files (a process in its exit path has closed them). */
function holdsFiles(pid: number): boolean {
  try {
    return [...Deno.readDirSync(`/proc/${pid}/fd`)].length > 0;
  } catch {
    return false;
  }
}

/** Kills whatever is left and frees the terminal. */
async function dispose(tree: TerminalTree): Promise<void> {
  await tree.signal("SIGKILL");
  await tree.ended;
  tree.release();
}

linux.test("one output stream: stdout is the terminal, stderr is empty, stdin types", () =>
  holdingLoop(async () => {
    const { tree, text, drained } = spawnTerminal(
      'read line; echo "out $line"; echo "err $line" >&2',
    );
    try {
      const writer = tree.stdin.getWriter();
      await writer.write(new TextEncoder().encode("x\r"));
      assert.equal(await new Response(tree.stderr).text(), "");
      await drained;
      assert.equal(text(), "x\r\nout x\r\nerr x\r\n");
      assert.deepEqual(await tree.exited, { exitCode: 0, signal: null });
      await tree.ended;
      assert.equal(tree.state(), null, "the terminal closed once its output ended");
    } finally {
      await dispose(tree);
    }
  }));

linux.test("the tree ends when its session is empty, not when its leader exits", () =>
  holdingLoop(async () => {
    // With job control on, the background job runs in a process group of its own.
    const { tree, tag, text } = spawnTerminal("set -m; sleep 1000 & echo job=$!");
    try {
      await eventually(() => /job=\d+/.test(text()), 20_000, "the job's pid");
      const job = Number(/job=(\d+)/.exec(text())?.[1]);
      // A job that holds files at the end is running; one killed may still be in its exit path
      // for a moment (files closed, not yet a zombie), and that is an end.
      let jobAliveAtEnd: boolean | null = null;
      tree.ended.then(() => jobAliveAtEnd = isAlive(job) && holdsFiles(job));
      assert.deepEqual(await tree.exited, { exitCode: 0, signal: null });
      assert.deepEqual(processesWithMarker(tag), [job], "the job outlives its leader");
      await tree.signal("SIGTERM");
      await tree.ended;
      assert.equal(jobAliveAtEnd, false, "the tree ended only once the job was gone");
      assert.deepEqual(processesWithMarker(tag), []);
    } finally {
      await dispose(tree);
    }
  }));

linux.test("the line discipline's state, resize and release", () =>
  holdingLoop(async () => {
    const { tree, text } = spawnTerminal("stty -echo; echo ready; read -r line; stty size");
    try {
      await eventually(() => text().includes("ready"), 20_000, "ready");
      assert.deepEqual(tree.state(), { echo: false, canonical: true });
      tree.resize(77, 11);
      await tree.stdin.getWriter().write(new TextEncoder().encode("go\r"));
      await eventually(() => text().includes("11 77"), 20_000, "the new size");
      await tree.ended;
      tree.release();
      assert.equal(tree.state(), null);
      assert.throws(() => tree.resize(80, 24), /the terminal is closed/);
    } finally {
      await dispose(tree);
    }
  }));
