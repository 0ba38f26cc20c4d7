/**
 * Issue 13 item 6: a cwd checked against the allowed roots and then swapped for a symlink must
 * not start the command where the symlink points. A swapper races 200 commands.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { bwrapTest } from "../platform/sandbox_harness.ts";
import { linux } from "../os.ts";
import { type Session, startServer } from "./harness.ts";

const COMMANDS = 200;
/** Fewer for the sandbox, whose runs cost more; it guards a narrower window (see the test). */
const SANDBOXED_COMMANDS = 100;
const SWAPPER = fileURLToPath(new URL("./cwd_swapper.ts", import.meta.url));

/** Starts the swapper on `dir` (pointing it at `target`) and resolves once it runs. */
async function startSwapper(dir: string, target: string): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SWAPPER, dir, target],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  await reader.read();
  reader.releaseLock();
  return child;
}

async function stopSwapper(child: Deno.ChildProcess, dir: string): Promise<void> {
  child.kill("SIGKILL");
  await child.status;
  await child.stdout.cancel().catch(() => {});
  // Leave the real directory in place, whichever step the swapper was killed in.
  try {
    if (Deno.lstatSync(dir).isSymlink) Deno.removeSync(dir);
  } catch { /* gone */ }
  try {
    Deno.renameSync(`${dir}.away`, dir);
  } catch { /* already back */ }
}

/** How one raced execution went. */
interface Raced {
  id: string | undefined;
  outcome: "refused before the start" | "refused by the pin" | "started";
  /** The first line of its output: where `pwd -P` found it started. */
  startedIn: string;
}

/** Runs `command` (printing `pwd -P` first) in `cwd`, `count` times, while the swapper runs. */
async function race(
  session: Session,
  command: string,
  options: { cwd: string; sideEffects: string[]; count: number },
) {
  const { cwd, sideEffects, count } = options;
  const runs: Raced[] = [];
  for (let i = 0; i < count; i++) {
    const { payload } = await session.call("execute", {
      command: command.replaceAll("{i}", String(i)),
      cwd,
      side_effects: sideEffects,
    });
    runs.push({
      id: payload.execution_id,
      outcome: payload.status === "failed_to_start"
        ? "refused before the start"
        : payload.exit_code === 126 && /replaced after the cwd check/.test(payload.stderr)
        ? "refused by the pin"
        : "started",
      startedIn: (payload.stdout ?? "").split("\n")[0],
    });
  }
  const tally: Record<string, number> = {};
  for (const run of runs) {
    const key = run.outcome === "started" ? `started in ${run.startedIn}` : run.outcome;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  console.log(`${command} in ${cwd}, swapped meanwhile:`, tally);
  return runs;
}

linux.test("a cwd swapped for a symlink to /etc after its check never starts a command in /etc", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "ys-cwd-race-" }));
  const dir = `${root}/d`;
  await Deno.mkdir(dir);
  try {
    await using session = await startServer({
      args: ["--allowed-cwd", root, "--default-cwd", root],
    });
    const swapper = await startSwapper(dir, "/etc");
    try {
      const runs = await race(session, "pwd -P", {
        cwd: dir,
        sideEffects: ["NONE"],
        count: COMMANDS,
      });
      // The swapper may rename the directory after the command started in it: still the one.
      const elsewhere = runs.filter((run) =>
        run.outcome === "started" && ![dir, `${dir}.away`].includes(run.startedIn)
      );
      assert.deepEqual(elsewhere, []);
    } finally {
      await stopSwapper(swapper, dir);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

bwrapTest(
  "a sandboxed workspace swapped for a symlink: only the checked directory is writable",
  async () => {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "ys-cwd-race-" }));
    const decoy = await Deno.realPath(await Deno.makeTempDir({ prefix: "ys-cwd-decoy-" }));
    const dir = `${root}/d`;
    await Deno.mkdir(dir);
    try {
      // No allowed roots: any cwd is allowed, and the one checked is the workspace made writable.
      // When the check found the link, the decoy is that workspace; otherwise it must stay shut.
      await using session = await startServer({
        args: ["--sandbox", "declared", "--max-retained-processes", String(SANDBOXED_COMMANDS)],
      });
      const swapper = await startSwapper(dir, decoy);
      let runs: Raced[];
      try {
        runs = await race(session, `pwd -P; touch ${decoy}/w{i} 2>/dev/null; :`, {
          cwd: dir,
          sideEffects: ["MODIFIES_WORKSPACE_FILES"],
          count: SANDBOXED_COMMANDS,
        });
      } finally {
        await stopSwapper(swapper, dir);
      }
      const { payload } = await session.call("ps", { limit: SANDBOXED_COMMANDS });
      const checked = new Map<string, string>(
        payload.executions.map((entry: { execution_id: string; cwd: string }) => [
          entry.execution_id,
          entry.cwd,
        ]),
      );
      runs.forEach((run, i) => {
        if (run.id === undefined) return;
        const cwd = checked.get(run.id);
        // Where it started (renamed meanwhile, or unnamed once its bind was moved: still the one).
        if (run.outcome === "started") {
          assert.ok(["", cwd, `${cwd}.away`].includes(run.startedIn), `run ${i}: ${run.startedIn}`);
        }
        assert.equal(exists(`${decoy}/w${i}`), cwd === decoy, `run ${i} (checked ${cwd})`);
      });
    } finally {
      await Deno.remove(root, { recursive: true });
      await Deno.remove(decoy, { recursive: true });
    }
  },
);

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
