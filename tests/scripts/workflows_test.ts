import assert from "node:assert/strict";
import { parse } from "yaml";
import { outputName } from "../../scripts/compile_plan.ts";

const ROOT = new URL("../../", import.meta.url);

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

interface Job {
  "runs-on": string;
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

const WORKFLOWS = ["ci.yml", "release.yml"];
const INSTALL_DENO = /^npm install -g deno@(\d+\.\d+\.\d+)$/;

Deno.test("workflows build and test only through the project's own tasks", async (t) => {
  const tasks = readTasks();
  const denoVersions = new Set<string>();
  for (const file of WORKFLOWS) {
    await t.step(file, () => {
      const workflow = readWorkflow(file);
      assert.ok(Object.keys(workflow.jobs).length > 0);
      for (const [id, job] of Object.entries(workflow.jobs)) {
        const commands = runs(job);
        assert.ok(commands.length > 0, `${file}: job ${id} runs nothing`);
        for (const command of commands) {
          const install = INSTALL_DENO.exec(command);
          if (install !== null) {
            denoVersions.add(install[1]);
            continue;
          }
          const task = /^deno task ([\w:-]+)(\s|$)/.exec(command);
          assert.ok(task !== null, `${file}: "${command}" is not \`deno task ...\``);
          assert.ok(task[1] in tasks, `${file}: deno.json has no task "${task[1]}"`);
        }
        // Deno comes from npm, so Node must be set up before the install.
        const uses = job.steps.map((step) => step.uses ?? step.run ?? "");
        const node = uses.findIndex((use) => use.startsWith("actions/setup-node@"));
        const install = uses.findIndex((use) => INSTALL_DENO.test(use));
        assert.ok(uses[0].startsWith("actions/checkout@"), `${file}: checkout comes first`);
        assert.ok(node >= 0 && node < install, `${file}: setup-node precedes the deno install`);
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

Deno.test("release builds on a v* tag, tests the Linux binary and attaches dist", () => {
  const workflow = readWorkflow("release.yml");
  assert.deepEqual((workflow.on.push as { tags: string[] }).tags, ["v*"]);
  assert.equal(workflow.permissions?.contents, "write");
  const [job] = Object.values(workflow.jobs);
  assert.equal(job["runs-on"], "ubuntu-latest");

  const compile = job.steps.findIndex((step) => step.run?.startsWith("deno task compile"));
  const test = job.steps.findIndex((step) => step.run?.startsWith("deno task test:binary"));
  const upload = job.steps.findIndex((step) =>
    step.uses?.startsWith("softprops/action-gh-release@")
  );
  assert.ok(compile >= 0 && compile < test && test < upload, "compile, then test, then upload");

  // All targets (no target list), and the tag checked against deno.json's version.
  assert.equal(job.steps[compile].run, 'deno task compile --expect-version "$RELEASE_TAG"');
  assert.equal(job.steps[compile].env?.RELEASE_TAG, "${{ github.ref_name }}");
  // A missing binary must fail the release, not skip the test.
  assert.match(job.steps[test].run!, /--require\b/);
  assert.equal(
    job.steps[test].env?.YIELDSHELL_BIN,
    `dist/${outputName("x86_64-unknown-linux-gnu")}`,
  );
  assert.equal(job.steps[upload].with?.files, "dist/*");
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
