/**
 * `deno task conformance`: runs the MCP conformance suite's server scenarios against yieldshell
 * over streamable HTTP on a free loopback port, started as the README starts it. Scenarios that
 * need fixture tools or capabilities yieldshell does not have are listed, each with its reason, in
 * tests/conformance_expected_failures.json; the suite fails on any other failure and on a listed
 * scenario that passes (a stale entry). Exits with the suite's status.
 */
import { startHttpServer } from "../tests/e2e/http_harness.ts";

/** The suite, pinned: a new version may add scenarios and needs a look at the baseline. */
export const CONFORMANCE_PACKAGE = "npm:@modelcontextprotocol/conformance@0.1.16";

const root = new URL("../", import.meta.url).pathname;
const EXPECTED_FAILURES = `${root}tests/conformance_expected_failures.json`;

/** Problems with the baseline file: a listed scenario without a reason, or a reason unlisted. */
export function baselineProblems(baseline: { server?: string[]; reasons?: object }): string[] {
  const listed = new Set(baseline.server ?? []);
  const reasons = baseline.reasons ?? {};
  const explained = new Set(Object.keys(reasons));
  return [
    ...[...listed].filter((name) => !explained.has(name)).map((name) =>
      `${name} is listed under "server" without an entry in "reasons"; say why it is expected to fail`
    ),
    ...[...explained].filter((name) => !listed.has(name)).map((name) =>
      `${name} has a reason but is not listed under "server"; list it or remove the reason`
    ),
  ];
}

/** Runs the active server suite against a fresh server; returns the suite's exit code. */
export async function runConformance(extraArgs: readonly string[] = []): Promise<number> {
  const problems = baselineProblems(JSON.parse(await Deno.readTextFile(EXPECTED_FAILURES)));
  for (const problem of problems) console.error(`conformance: ${EXPECTED_FAILURES}: ${problem}`);
  if (problems.length > 0) return 1;
  await using server = await startHttpServer();
  console.error(`conformance: testing ${server.url}`);
  // --no-config and --no-lock: the suite is a tool, not a dependency of this project.
  const suite = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-config",
      "--no-lock",
      CONFORMANCE_PACKAGE,
      "server",
      "--url",
      server.url,
      "--expected-failures",
      EXPECTED_FAILURES,
      ...extraArgs,
    ],
    cwd: root,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const { code } = await suite.status;
  return code;
}

if (import.meta.main) {
  // Arguments pass through, e.g. `deno task conformance --scenario ping --verbose`.
  Deno.exit(await runConformance(Deno.args));
}
