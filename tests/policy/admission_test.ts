import assert from "node:assert/strict";
import { type AdmissionRules, admit } from "../../src/policy/admission.ts";

const RULES: AdmissionRules = {
  blockedSideEffects: new Set(["RUNS_INLINE_CODE"]),
  deny: /forbidden/,
  allow: null,
  checkNames: ({ command, env }) =>
    command.includes("rm") || "LD_PRELOAD" in env
      ? { allow: false, reason: "Command 'rm' is blocked by the blacklist" }
      : {
        allow: true,
      },
  defaultCwd: "/work",
  allowedCwds: ["/work"],
  pathSeparator: "/",
  realPath: (path) => path === "/work" || path === "/work/app" || path === "/" ? path : null,
  isDirectory: (path) => path === "/work" || path === "/work/app",
};

Deno.test("admission checks side effects, regexes, command names, then cwd, first refusal wins", async (t) => {
  const steps: [string, Parameters<typeof admit>[0], RegExp][] = [
    [
      "side effects first",
      {
        command: "forbidden rm",
        sideEffects: ["RUNS_INLINE_CODE"],
        shell: null,
        cwd: "/etc",
        env: {},
      },
      /^Side-effect category blocked by policy/,
    ],
    [
      "then the regexes",
      { command: "forbidden rm", sideEffects: ["NONE"], shell: null, cwd: "/etc", env: {} },
      /^Command denied by policy$/,
    ],
    [
      "then the shell against the regexes",
      { command: "rm", sideEffects: ["NONE"], shell: "/forbidden/sh", cwd: "/etc", env: {} },
      /^Shell rejected by policy: Command denied by policy$/,
    ],
    [
      "then command names",
      { command: "rm x", sideEffects: ["NONE"], shell: null, cwd: "/etc", env: {} },
      /blacklist/,
    ],
    [
      "then the cwd roots",
      { command: "ls", sideEffects: ["NONE"], shell: null, cwd: "/etc", env: {} },
      /^Cwd not under allowed roots: \/etc$/,
    ],
    [
      "then the cwd's existence",
      { command: "ls", sideEffects: ["NONE"], shell: null, cwd: "missing", env: {} },
      /\/work\/missing/,
    ],
    [
      "then the variables of the env argument, with the names",
      { command: "ls", sideEffects: ["NONE"], shell: null, cwd: "/etc", env: { LD_PRELOAD: "x" } },
      /blacklist/,
    ],
  ];
  for (const [name, request, expected] of steps) {
    await t.step(name, () => {
      const decision = admit(request, RULES);
      assert.equal(decision.allow, false);
      if (!decision.allow) assert.match(decision.reason, expected);
    });
  }
  assert.deepEqual(
    admit({ command: "ls", sideEffects: ["NONE"], shell: null, cwd: "app", env: {} }, RULES),
    { allow: true, cwd: "/work/app" },
  );
  assert.deepEqual(
    admit({ command: "ls", sideEffects: ["NONE"], shell: null, cwd: null, env: {} }, RULES),
    { allow: true, cwd: "/work" },
  );
});
