import assert from "node:assert/strict";
import { type AdmissionRules, admit } from "../../src/policy/admission.ts";

const RULES: AdmissionRules = {
  blockedSideEffects: new Set(["RUNS_INLINE_CODE"]),
  deny: /forbidden/,
  allow: null,
  checkNames: (command) =>
    command.includes("rm")
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
      { command: "forbidden rm", sideEffects: ["RUNS_INLINE_CODE"], shell: null, cwd: "/etc" },
      /^Side-effect category blocked by policy/,
    ],
    [
      "then the regexes",
      { command: "forbidden rm", sideEffects: ["NONE"], shell: null, cwd: "/etc" },
      /^Command denied by policy$/,
    ],
    [
      "then the shell against the regexes",
      { command: "rm", sideEffects: ["NONE"], shell: "/forbidden/sh", cwd: "/etc" },
      /^Shell rejected by policy: Command denied by policy$/,
    ],
    [
      "then command names",
      { command: "rm x", sideEffects: ["NONE"], shell: null, cwd: "/etc" },
      /blacklist/,
    ],
    [
      "then the cwd roots",
      { command: "ls", sideEffects: ["NONE"], shell: null, cwd: "/etc" },
      /^Cwd not under allowed roots: \/etc$/,
    ],
    [
      "then the cwd's existence",
      { command: "ls", sideEffects: ["NONE"], shell: null, cwd: "missing" },
      /\/work\/missing/,
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
    admit({ command: "ls", sideEffects: ["NONE"], shell: null, cwd: "app" }, RULES),
    { allow: true, cwd: "/work/app" },
  );
  assert.deepEqual(
    admit({ command: "ls", sideEffects: ["NONE"], shell: null, cwd: null }, RULES),
    { allow: true, cwd: "/work" },
  );
});
