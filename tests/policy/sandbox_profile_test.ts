import assert from "node:assert/strict";
import {
  decideSandbox,
  profileLabel,
  SANDBOX_TABLE,
  type SandboxDecision,
  type SandboxMode,
  UNCONFINABLE_SIDE_EFFECTS,
} from "../../src/policy/sandbox_profile.ts";
import { SIDE_EFFECTS, type SideEffect } from "../../src/policy/side_effects.ts";

const NOBODY: ReadonlySet<string> = new Set();

function decide(
  declared: SideEffect[],
  mode: SandboxMode,
  allowUnconfined: ReadonlySet<string> = NOBODY,
): SandboxDecision {
  return decideSandbox(declared, { mode, allowUnconfined });
}

const READ_ONLY = { filesystem: "read-only", network: false } as const;
const WORKSPACE = { filesystem: "workspace-writable", network: false } as const;

Deno.test("the table has a row for every side effect, and only the documented ones confine", () => {
  assert.deepEqual(Object.keys(SANDBOX_TABLE).sort(), [...SIDE_EFFECTS].sort());
  assert.deepEqual(UNCONFINABLE_SIDE_EFFECTS, [
    "CHANGES_NETWORK_CONFIGURATION",
    "KILLS_AGENT_PROCESS",
    "MODIFIES_OS_SETTINGS",
    "MODIFIES_OS_USER_SETTINGS",
    "MODIFIES_OUTSIDE_WORKSPACE",
    "MODIFIES_PRODUCTION_SERVICES",
    "MODIFIES_PROTECTED_FILES",
    "MODIFIES_SECURITY_CONTROLS",
    "OTHER",
    "RUNS_PRIVILEGED_COMMANDS",
    "STOPS_OR_RESTARTS_SERVICES",
    "UNKNOWN",
  ]);
});

Deno.test("declared: each confinable category alone", async (t) => {
  const cases: [SideEffect, string][] = [
    ["NONE", "read-only, no network"],
    ["CONSUMES_SIGNIFICANT_RESOURCES", "read-only, no network"],
    ["EXPOSES_SECRETS", "read-only, no network"],
    ["RUNS_INLINE_CODE", "read-only, no network"],
    ["MODIFIES_WORKSPACE_FILES", "workspace-writable, no network"],
    ["DELETES_FILES", "workspace-writable, no network"],
    ["USES_DESTRUCTIVE_GIT_OPERATION", "workspace-writable, no network"],
    ["MAKES_NETWORK_REQUESTS", "read-only, network"],
    ["CHANGES_PACKAGES_OR_DEPENDENCIES", "workspace-writable, network"],
  ];
  for (const [category, label] of cases) {
    await t.step(category, () => {
      const decision = decide([category], "declared");
      assert.ok(decision.allow);
      assert.equal(decision.label, label);
      assert.ok(decision.profile !== null);
      assert.equal(profileLabel(decision.profile, "declared"), label);
    });
  }
});

Deno.test("declared: categories combine as the union of their rows", () => {
  assert.deepEqual(decide(["MAKES_NETWORK_REQUESTS", "MODIFIES_WORKSPACE_FILES"], "declared"), {
    allow: true,
    profile: { filesystem: "workspace-writable", network: true },
    label: "workspace-writable, network",
  });
  assert.deepEqual(decide(["EXPOSES_SECRETS", "RUNS_INLINE_CODE"], "declared"), {
    allow: true,
    profile: READ_ONLY,
    label: "read-only, no network",
  });
  assert.deepEqual(decide(["DELETES_FILES", "CONSUMES_SIGNIFICANT_RESOURCES"], "declared"), {
    allow: true,
    profile: WORKSPACE,
    label: "workspace-writable, no network",
  });
});

Deno.test("declared: an unconfinable category is refused unless the operator allows it", async (t) => {
  for (const category of UNCONFINABLE_SIDE_EFFECTS) {
    await t.step(`${category} refused, naming the setting`, () => {
      assert.deepEqual(decide([category], "declared"), {
        allow: false,
        reason: `Cannot run a command declaring ${category} under sandbox: declared, as the ` +
          "sandbox cannot confine it; declare only categories the sandbox confines, or ask the " +
          `operator to allow it unconfined with allow_unconfined (--allow-unconfined ${category}, ` +
          "YIELDSHELL_ALLOW_UNCONFINED)",
      });
    });
    await t.step(`${category} runs unconfined when allowed`, () => {
      assert.deepEqual(decide([category], "declared", new Set([category])), {
        allow: true,
        profile: null,
        label: "unconfined",
      });
    });
  }
  await t.step("with a confinable category too, still unconfined when allowed", () => {
    const decision = decide(
      ["MODIFIES_WORKSPACE_FILES", "UNKNOWN"],
      "declared",
      new Set(["UNKNOWN"]),
    );
    assert.deepEqual(decision, { allow: true, profile: null, label: "unconfined" });
  });
  await t.step("only the categories not allowed are named", () => {
    const decision = decide(
      ["UNKNOWN", "OTHER", "RUNS_PRIVILEGED_COMMANDS"],
      "declared",
      new Set(["OTHER"]),
    );
    assert.ok(!decision.allow);
    assert.match(decision.reason, /declaring UNKNOWN, RUNS_PRIVILEGED_COMMANDS under/);
    assert.match(decision.reason, /--allow-unconfined UNKNOWN,RUNS_PRIVILEGED_COMMANDS,/);
  });
});

Deno.test("strict: every execution is sandboxed inside the workspace whatever it declares", async (t) => {
  for (const category of SIDE_EFFECTS) {
    await t.step(category, () => {
      const decision = decide([category], "strict", new Set(UNCONFINABLE_SIDE_EFFECTS));
      assert.ok(decision.allow);
      assert.ok(decision.profile !== null, "strict never runs unconfined");
      const row = SANDBOX_TABLE[category];
      assert.deepEqual(decision.profile, { filesystem: row.filesystem, network: row.network });
      if (!row.confinable) assert.deepEqual(decision.profile, WORKSPACE);
    });
  }
  await t.step("an unconfinable category gets network only from a network category", () => {
    const decision = decide(["UNKNOWN", "MAKES_NETWORK_REQUESTS"], "strict");
    assert.deepEqual(decision, {
      allow: true,
      profile: { filesystem: "workspace-writable", network: true },
      label: "workspace-writable, network",
    });
  });
  await t.step("NONE stays read-only", () => {
    assert.deepEqual(decide(["NONE"], "strict"), {
      allow: true,
      profile: READ_ONLY,
      label: "read-only, no network",
    });
  });
});

Deno.test("off: no sandbox for anything", () => {
  for (const category of SIDE_EFFECTS) {
    assert.deepEqual(decide([category], "off"), { allow: true, profile: null, label: "off" });
  }
});

Deno.test("the README's profile table is the code's table", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const rows = new Map<string, string[]>();
  for (const line of readme.split("\n")) {
    const match = /^\| `([A-Z_]+)`((?:\s*\|[^|]*)+)\|\s*$/.exec(line);
    if (match === null || !(SIDE_EFFECTS as readonly string[]).includes(match[1])) continue;
    rows.set(match[1], match[2].split("|").slice(1).map((cell) => cell.trim()));
  }
  assert.deepEqual(
    [...rows.keys()].sort(),
    [...SIDE_EFFECTS].sort(),
    "one README row per category",
  );
  for (const category of SIDE_EFFECTS) {
    const row = SANDBOX_TABLE[category];
    const [filesystem, network, declared] = rows.get(category)!;
    const where = row.confinable ? "" : " (strict)";
    assert.equal(filesystem, `${row.filesystem}${where}`, category);
    assert.equal(network, `${row.network ? "on" : "off"}${where}`, category);
    assert.equal(declared, row.confinable ? "sandboxed" : "refused unless allowed", category);
  }
});
