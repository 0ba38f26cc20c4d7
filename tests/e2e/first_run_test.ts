import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import denoJson from "../../deno.json" with { type: "json" };

const root = fileURLToPath(new URL("../../", import.meta.url));
/** What Deno itself prints on a start without `-q`. */
const DENO_NOISE = /experimental feature|Download|Initialize|Warning/;

/** The code of a Markdown text: fenced blocks and inline spans. */
function codeOf(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
  const prose = markdown.replaceAll(/^```\w*\n[\s\S]*?^```$/gm, "");
  return [...fenced, ...[...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1])];
}

Deno.test("the start tasks run deno quietly", () => {
  for (const name of ["start", "start:http"] as const) {
    assert.match(denoJson.tasks[name], /^deno run -q /, name);
  }
});

Deno.test("`deno task start` prints nothing of Deno's own on stderr, only yieldshell's lines", async () => {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "start"],
    cwd: root,
    // stdin at EOF: the server starts, sees its client gone, and exits 0.
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  // deno task names the task it runs; everything else must be yieldshell's.
  const text = new TextDecoder().decode(stderr);
  assert.equal(code, 0, text);
  const lines = text.split("\n").filter((line) => line !== "" && !line.startsWith("Task start "));
  assert.ok(lines.length > 0, text);
  for (const line of lines) {
    assert.doesNotMatch(line, DENO_NOISE);
    assert.match(line, /^yieldshell: /, line);
  }
});

Deno.test("every start command the README documents runs deno quietly", async () => {
  const readme = await Deno.readTextFile(`${root}README.md`);
  let starts = 0;
  for (const block of codeOf(readme)) {
    for (const match of block.matchAll(/deno run (\S+)/g)) {
      starts++;
      assert.equal(match[1], "-q", match[0]);
    }
    for (const match of block.matchAll(/"args": \["run", ("[^"]*")/g)) {
      starts++;
      assert.equal(match[1], '"-q"', match[0]);
    }
  }
  assert.ok(starts >= 3, `only ${starts} documented starts found`);
});
