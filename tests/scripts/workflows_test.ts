import assert from "node:assert/strict";
import { parse } from "yaml";
import { isDarwinTarget, outputName, type Target, TARGETS } from "../../scripts/compile_plan.ts";

const ROOT = new URL("../../", import.meta.url);

interface Step {
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

interface Job {
  "runs-on": string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown> };
  steps: Step[];
}

interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

function readWorkflow(name: string): Workflow {
  return parse(Deno.readTextFileSync(new URL(`.github/workflows/${name}`, ROOT)));
}

function readTasks(): Record<string, string> {
  return JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT))).tasks;
}

function runs(job: Job): string[] {
  return job.steps.flatMap((step) => step.run === undefined ? [] : [step.run.trim()]);
}

function needs(job: Job): string[] {
  return job.needs === undefined ? [] : [job.needs].flat();
}

const WORKFLOWS = ["ci.yml", "release.yml"];
const INSTALL_DENO = /^npm install -g deno@(\d+\.\d+\.\d+)$/;
/** The release's install scripts, run as a user runs them: the only commands besides tasks. */
const INSTALL_SCRIPT = /^(sh release\/install\.sh|\.\/release\/install\.ps1) /;

Deno.test("workflows build and test only through the project's own tasks and install scripts", async (t) => {
  const tasks = readTasks();
  const denoVersions = new Set<string>();
  for (const file of WORKFLOWS) {
    await t.step(file, () => {
      const workflow = readWorkflow(file);
      assert.ok(Object.keys(workflow.jobs).length > 0);
      for (const [id, job] of Object.entries(workflow.jobs)) {
        const commands = runs(job);
        for (const command of commands) {
          const install = INSTALL_DENO.exec(command);
          if (install !== null) {
            denoVersions.add(install[1]);
            continue;
          }
          if (INSTALL_SCRIPT.test(command)) continue;
          const task = /^deno task ([\w:-]+)(\s|$)/.exec(command);
          assert.ok(task !== null, `${file}: "${command}" is not \`deno task ...\``);
          assert.ok(task[1] in tasks, `${file}: deno.json has no task "${task[1]}"`);
        }
        if (commands.length === 0) {
          // Only publishing may run nothing of ours: it attaches what the other jobs built.
          assert.ok(job.steps.every((step) => step.uses !== undefined), `${file}: job ${id}`);
          continue;
        }
        // Deno comes from npm, so Node must be set up before the install.
        const uses = job.steps.map((step) => step.uses ?? step.run ?? "");
        const node = uses.findIndex((use) => use.startsWith("actions/setup-node@"));
        const install = uses.findIndex((use) => INSTALL_DENO.test(use));
        assert.ok(uses[0].startsWith("actions/checkout@"), `${file}: ${id}: checkout comes first`);
        assert.ok(node >= 0 && node < install, `${file}: ${id}: setup-node precedes deno`);
      }
    });
  }
  assert.equal(denoVersions.size, 1, `one Deno version everywhere: ${[...denoVersions]}`);
});

Deno.test("ci runs the gate on push and pull request on three operating systems", () => {
  const workflow = readWorkflow("ci.yml");
  assert.ok("push" in workflow.on && "pull_request" in workflow.on);
  assert.equal(workflow.permissions?.contents, "read");
  const jobs = Object.values(workflow.jobs);
  assert.equal(jobs.length, 1);
  const [job] = jobs;
  assert.deepEqual(job.strategy?.matrix?.os, ["ubuntu-latest", "macos-latest", "windows-latest"]);
  assert.equal(job["runs-on"], "${{ matrix.os }}");
  assert.equal(runs(job).at(-1), "deno task ok");
});

const release = readWorkflow("release.yml");
const TAG = "${{ github.ref_name }}";

function stepRunning(job: Job, prefix: string): Step {
  const step = job.steps.find((candidate) => candidate.run?.startsWith(prefix));
  assert.ok(step !== undefined, `no step runs ${prefix}`);
  return step;
}

Deno.test("release runs on a v* tag and writes to the repository only to publish", () => {
  assert.deepEqual((release.on.push as { tags: string[] }).tags, ["v*"]);
  assert.equal(release.permissions?.contents, "read");
  for (const [id, job] of Object.entries(release.jobs)) {
    assert.equal(job.permissions?.contents, id === "publish" ? "write" : undefined, id);
  }
  assert.equal(runs(release.jobs.gate).at(-1), "deno task ok");
});

Deno.test("release builds every target once, the macOS ones signed on macOS, refusing a wrong tag", () => {
  const built: Target[] = [];
  for (const id of ["build-linux-windows", "build-macos"]) {
    const job = release.jobs[id];
    const step = stepRunning(job, "deno task compile ");
    const words = step.run!.split(/\s+/);
    assert.deepEqual(words.slice(0, 5), [
      "deno",
      "task",
      "compile",
      "--expect-version",
      '"$RELEASE_TAG"',
    ]);
    assert.equal(step.env?.RELEASE_TAG, TAG);
    const targets = words.filter((word) =>
      (TARGETS as readonly string[]).includes(word)
    ) as Target[];
    const darwin = targets.every(isDarwinTarget);
    assert.ok(darwin || !targets.some(isDarwinTarget), `${id} mixes macOS and other targets`);
    // Apple Silicon kills an unsigned binary: macOS targets are built and signed on macOS.
    assert.equal(job["runs-on"], darwin ? "macos-14" : "ubuntu-latest");
    assert.equal(words.includes("--codesign"), darwin, id);
    const upload = job.steps.find((candidate) =>
      candidate.uses?.startsWith("actions/upload-artifact@")
    );
    assert.equal(upload?.with?.path, "dist/yieldshell-*");
    built.push(...targets);
  }
  assert.deepEqual([...built].sort(), [...TARGETS].sort());

  const assemble = release.jobs.assemble;
  assert.deepEqual(needs(assemble).sort(), ["build-linux-windows", "build-macos"]);
  const sums = stepRunning(assemble, "deno task compile ");
  assert.equal(sums.run, 'deno task compile --sums-only --expect-version "$RELEASE_TAG"');
  const upload = assemble.steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"));
  assert.equal(upload?.with?.name, "release");
  for (const path of ["dist/yieldshell-*", "dist/SHA256SUMS", "install.sh", "install.ps1"]) {
    assert.ok(String(upload?.with?.path).split("\n").includes(path), path);
  }
});

/** The runner each target is smoke-tested on: its own OS and architecture. */
const SMOKE_RUNNERS: Record<Target, string> = {
  "x86_64-unknown-linux-gnu": "ubuntu-latest",
  "aarch64-unknown-linux-gnu": "ubuntu-24.04-arm",
  "x86_64-apple-darwin": "macos-13",
  "aarch64-apple-darwin": "macos-14",
  "x86_64-pc-windows-msvc": "windows-latest",
};

Deno.test("release installs and smoke-tests each binary on a runner of its own OS and architecture", () => {
  const smoke = release.jobs.smoke;
  assert.deepEqual(needs(smoke), ["assemble"]);
  assert.equal(smoke["runs-on"], "${{ matrix.runner }}");
  const include = smoke.strategy?.matrix?.include as Record<string, string>[];
  assert.deepEqual(
    Object.fromEntries(include.map((entry) => [entry.target, entry.runner])),
    SMOKE_RUNNERS,
  );
  for (const entry of include) {
    assert.equal(entry.asset, outputName(entry.target as Target));
    assert.equal(entry.binary, entry.target.includes("windows") ? "yieldshell.exe" : "yieldshell");
  }
  assert.equal(smoke.env?.RELEASE_TAG, TAG);
  assert.equal(smoke.env?.ASSET, "${{ matrix.asset }}");

  // Installed by the release's own scripts from the assembled release, pinned to the tag.
  const installs = smoke.steps.filter((step) => INSTALL_SCRIPT.test(step.run ?? ""));
  assert.deepEqual(installs.map((step) => [step.if, step.shell ?? "default"]), [
    ["runner.os != 'Windows'", "default"],
    ["runner.os == 'Windows'", "pwsh"],
    ["runner.os == 'Windows'", "powershell"],
  ]);
  for (const step of installs) {
    assert.match(step.run!, /release\/dist/);
    assert.match(step.run!, /RUNNER_TEMP/);
    assert.match(step.run!, /RELEASE_TAG/);
  }
  const test = stepRunning(smoke, "deno task test:binary");
  assert.equal(
    test.run,
    'deno task test:binary --expect-version "$RELEASE_TAG" --sums release/dist/SHA256SUMS --asset "$ASSET"',
  );
  assert.equal(test.env?.YIELDSHELL_BIN, "${{ runner.temp }}/bin/${{ matrix.binary }}");
  assert.ok(smoke.steps.indexOf(test) > smoke.steps.indexOf(installs.at(-1)!));
});

Deno.test("release publishes only after the gate and every smoke test passed", () => {
  const publish = release.jobs.publish;
  assert.deepEqual(needs(publish).sort(), ["gate", "smoke"]);
  const upload = publish.steps.find((step) =>
    step.uses?.startsWith("softprops/action-gh-release@")
  );
  assert.equal(upload?.with?.fail_on_unmatched_files, true);
  assert.deepEqual(String(upload?.with?.files).trim().split("\n"), [
    "release/dist/yieldshell-*",
    "release/dist/SHA256SUMS",
    "release/install.sh",
    "release/install.ps1",
  ]);
});

Deno.test("no workflow interpolates an expression into a shell script", () => {
  for (const file of WORKFLOWS) {
    for (const job of Object.values(readWorkflow(file).jobs)) {
      for (const command of runs(job)) {
        assert.doesNotMatch(command, /\$\{\{/, `${file}: pass "${command}" values through env`);
      }
    }
  }
});
