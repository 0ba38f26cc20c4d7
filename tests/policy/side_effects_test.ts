import assert from "node:assert/strict";
import type { Decision } from "../../src/policy/decision.ts";
import {
  blockedGuidance,
  checkSideEffects,
  DEFAULT_BLOCKED_SIDE_EFFECTS,
  parseBlockedSideEffects,
  SIDE_EFFECTS,
  validateSideEffectNames,
} from "../../src/policy/side_effects.ts";

const DEFAULTS: ReadonlySet<string> = new Set(DEFAULT_BLOCKED_SIDE_EFFECTS);
const NOTHING: ReadonlySet<string> = new Set();

const PROTECTED =
  "Do not modify protected files; use a workspace-scoped path or ask the operator to update the policy via MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS.";
const OS_SETTINGS =
  "Do not change OS-level configuration such as systemd units, kernel parameters, /etc files, package manager system config, or global service defaults; re-declare with a safer category or request an explicit policy override.";
const USER_SETTINGS =
  "Do not change user-level configuration such as shell rc files, XDG config directories, dotfiles, or per-user application preferences; re-declare with a safer category or request an explicit policy override.";
const DELETES =
  "Avoid deletion; prefer reversible edits, or request explicit confirmation when deletion is truly required.";
const INLINE =
  "Do not execute code supplied inline to an interpreter or shell (e.g. python -c, node -e, curl ... | sh); create or edit a reviewable workspace file and execute it in a small, inspectable step.";
const KILLS =
  "Do not run commands that may terminate the MCP client, agent, or related process running the agent workflow; re-declare with a safer category or request an explicit policy override.";
const FALLBACK = "re-declare with an allowed category or update operator policy.";
const STOPPED = "Execution was stopped by policy before the process started.";

const SORTED_NAMES =
  "CHANGES_NETWORK_CONFIGURATION, CHANGES_PACKAGES_OR_DEPENDENCIES, CONSUMES_SIGNIFICANT_RESOURCES, DELETES_FILES, EXPOSES_SECRETS, KILLS_AGENT_PROCESS, MAKES_NETWORK_REQUESTS, MODIFIES_OS_SETTINGS, MODIFIES_OS_USER_SETTINGS, MODIFIES_OUTSIDE_WORKSPACE, MODIFIES_PRODUCTION_SERVICES, MODIFIES_PROTECTED_FILES, MODIFIES_SECURITY_CONTROLS, MODIFIES_WORKSPACE_FILES, NONE, OTHER, RUNS_INLINE_CODE, RUNS_PRIVILEGED_COMMANDS, STOPS_OR_RESTARTS_SERVICES, UNKNOWN, USES_DESTRUCTIVE_GIT_OPERATION";

function deny(reason: string): Decision {
  return { allow: false, reason };
}

Deno.test("SIDE_EFFECTS lists the 21 categories alphabetically", () => {
  assert.equal(SIDE_EFFECTS.length, 21);
  assert.deepEqual([...SIDE_EFFECTS], [...SIDE_EFFECTS].sort());
  assert.equal(SIDE_EFFECTS.join(", "), SORTED_NAMES);
  assert.deepEqual([...DEFAULT_BLOCKED_SIDE_EFFECTS], [
    "KILLS_AGENT_PROCESS",
    "MODIFIES_OS_SETTINGS",
    "MODIFIES_OS_USER_SETTINGS",
    "MODIFIES_PROTECTED_FILES",
    "RUNS_INLINE_CODE",
  ]);
});

Deno.test("checkSideEffects", async (t) => {
  const cases: {
    name: string;
    declared: string[];
    blocked?: ReadonlySet<string>;
    want: Decision;
  }[] = [
    { name: "NONE alone", declared: ["NONE"], want: { allow: true } },
    { name: "NONE twice", declared: ["NONE", "NONE"], want: { allow: true } },
    {
      name: "allowed categories",
      declared: ["CHANGES_PACKAGES_OR_DEPENDENCIES", "MAKES_NETWORK_REQUESTS"],
      want: { allow: true },
    },
    {
      name: "duplicates of an allowed category",
      declared: ["DELETES_FILES", "DELETES_FILES"],
      want: { allow: true },
    },
    {
      name: "empty list",
      declared: [],
      want: deny(
        'side_effects must not be empty; pass ["NONE"] for commands with no side effects',
      ),
    },
    {
      name: "empty list with nothing blocked",
      declared: [],
      blocked: NOTHING,
      want: deny(
        'side_effects must not be empty; pass ["NONE"] for commands with no side effects',
      ),
    },
    {
      name: "lowercase name",
      declared: ["none"],
      want: deny("Invalid side_effects: 'none' is not a valid SideEffect"),
    },
    {
      name: "old name",
      declared: ["MODIFIES_WORKSPACE_FILES", "INSTALLS_DEPENDENCIES"],
      want: deny("Invalid side_effects: 'INSTALLS_DEPENDENCIES' is not a valid SideEffect"),
    },
    ...["BREAKS_OPERATING_SYSTEM", "GENERATES_EXECUTABLE_CONTENT", "BREAKS_OS_USER_SETTINGS"].map(
      (old) => ({
        name: `old name ${old}`,
        declared: [old],
        want: deny(`Invalid side_effects: '${old}' is not a valid SideEffect`),
      }),
    ),
    {
      name: "NONE with others, declaration order kept",
      declared: ["DELETES_FILES", "NONE", "OTHER"],
      want: deny(
        "side_effects=NONE is exclusive and cannot be combined with other categories: ['DELETES_FILES', 'OTHER']",
      ),
    },
    {
      name: "NONE with a duplicated other",
      declared: ["NONE", "OTHER", "OTHER"],
      want: deny(
        "side_effects=NONE is exclusive and cannot be combined with other categories: ['OTHER', 'OTHER']",
      ),
    },
    {
      name: "NONE exclusivity is checked before the blocklist",
      declared: ["NONE", "RUNS_INLINE_CODE"],
      want: deny(
        "side_effects=NONE is exclusive and cannot be combined with other categories: ['RUNS_INLINE_CODE']",
      ),
    },
    {
      name: "one blocked category",
      declared: ["RUNS_INLINE_CODE"],
      want: deny(
        `Side-effect category blocked by policy: RUNS_INLINE_CODE. ${STOPPED} RUNS_INLINE_CODE: ${INLINE}`,
      ),
    },
    {
      name: "blocked categories in declaration order, allowed ones skipped",
      declared: ["MODIFIES_PROTECTED_FILES", "MAKES_NETWORK_REQUESTS", "KILLS_AGENT_PROCESS"],
      want: deny(
        `Side-effect category blocked by policy: MODIFIES_PROTECTED_FILES, KILLS_AGENT_PROCESS. ${STOPPED} MODIFIES_PROTECTED_FILES: ${PROTECTED} KILLS_AGENT_PROCESS: ${KILLS}`,
      ),
    },
    {
      name: "OS and user settings",
      declared: ["MODIFIES_OS_USER_SETTINGS", "MODIFIES_OS_SETTINGS"],
      want: deny(
        `Side-effect category blocked by policy: MODIFIES_OS_USER_SETTINGS, MODIFIES_OS_SETTINGS. ${STOPPED} MODIFIES_OS_USER_SETTINGS: ${USER_SETTINGS} MODIFIES_OS_SETTINGS: ${OS_SETTINGS}`,
      ),
    },
    {
      name: "duplicates repeated in the blocked message",
      declared: ["RUNS_INLINE_CODE", "RUNS_INLINE_CODE"],
      want: deny(
        `Side-effect category blocked by policy: RUNS_INLINE_CODE, RUNS_INLINE_CODE. ${STOPPED} RUNS_INLINE_CODE: ${INLINE} RUNS_INLINE_CODE: ${INLINE}`,
      ),
    },
    {
      name: "DELETES_FILES has guidance when configured as blocked",
      declared: ["DELETES_FILES"],
      blocked: new Set(["DELETES_FILES"]),
      want: deny(
        `Side-effect category blocked by policy: DELETES_FILES. ${STOPPED} DELETES_FILES: ${DELETES}`,
      ),
    },
    {
      name: "other categories get the fallback guidance",
      declared: ["MAKES_NETWORK_REQUESTS", "OTHER"],
      blocked: new Set(["OTHER", "MAKES_NETWORK_REQUESTS"]),
      want: deny(
        `Side-effect category blocked by policy: MAKES_NETWORK_REQUESTS, OTHER. ${STOPPED} MAKES_NETWORK_REQUESTS: ${FALLBACK} OTHER: ${FALLBACK}`,
      ),
    },
    {
      name: "NONE can be blocked and gets the fallback guidance",
      declared: ["NONE"],
      blocked: new Set(["NONE"]),
      want: deny(`Side-effect category blocked by policy: NONE. ${STOPPED} NONE: ${FALLBACK}`),
    },
    {
      name: "a cleared blocklist allows the defaults",
      declared: ["RUNS_INLINE_CODE", "KILLS_AGENT_PROCESS"],
      blocked: NOTHING,
      want: { allow: true },
    },
  ];
  for (const { name, declared, blocked = DEFAULTS, want } of cases) {
    await t.step(name, () => assert.deepEqual(checkSideEffects(declared, blocked), want));
  }
});

Deno.test("blockedGuidance falls back for unknown names", () => {
  assert.equal(blockedGuidance("RUNS_INLINE_CODE"), INLINE);
  assert.equal(blockedGuidance("UNKNOWN"), FALLBACK);
  assert.equal(blockedGuidance("not a category"), FALLBACK);
});

Deno.test("parseBlockedSideEffects", async (t) => {
  const defaults = [...DEFAULT_BLOCKED_SIDE_EFFECTS];
  const cases: { raw: string | undefined; want: ReturnType<typeof parseBlockedSideEffects> }[] = [
    { raw: undefined, want: { value: defaults } },
    { raw: "", want: { value: defaults } },
    { raw: ",", want: { value: [] } },
    { raw: " , ", want: { value: [] } },
    { raw: ",,,", want: { value: [] } },
    { raw: "DELETES_FILES", want: { value: ["DELETES_FILES"] } },
    {
      raw: " DELETES_FILES ,, OTHER,",
      want: { value: ["DELETES_FILES", "OTHER"] },
    },
    { raw: "OTHER,OTHER", want: { value: ["OTHER"] } },
    { raw: "NONE", want: { value: ["NONE"] } },
    {
      raw: "deletes_files",
      want: {
        error:
          `MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS contains invalid value(s): 'deletes_files'. Valid values (case-sensitive): ${SORTED_NAMES}.`,
      },
    },
    {
      raw: "A, DELETES_FILES, B, A",
      want: {
        error:
          `MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS contains invalid value(s): 'A', 'B'. Valid values (case-sensitive): ${SORTED_NAMES}.`,
      },
    },
    {
      raw: "INSTALLS_DEPENDENCIES",
      want: {
        error:
          `MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS contains invalid value(s): 'INSTALLS_DEPENDENCIES'. Valid values (case-sensitive): ${SORTED_NAMES}.`,
      },
    },
  ];
  for (const { raw, want } of cases) {
    await t.step(JSON.stringify(raw ?? null), () => {
      assert.deepEqual(parseBlockedSideEffects(raw), want);
    });
  }

  for (const raw of [" ", "\t", "  \n "]) {
    await t.step(`whitespace-only ${JSON.stringify(raw)} keeps the defaults and warns`, () => {
      const result = parseBlockedSideEffects(raw);
      assert.ok("value" in result);
      assert.deepEqual(result.value, defaults);
      assert.equal(
        result.warning,
        'MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS is whitespace-only, so it cleared nothing and the default blocklist stays in effect (KILLS_AGENT_PROCESS, MODIFIES_OS_SETTINGS, MODIFIES_OS_USER_SETTINGS, MODIFIES_PROTECTED_FILES, RUNS_INLINE_CODE); set it to "," to block no category, or list the categories to block',
      );
    });
  }

  await t.step("an explicit list replaces the defaults", () => {
    const result = parseBlockedSideEffects("DELETES_FILES");
    assert.ok("value" in result);
    const decision = checkSideEffects(["RUNS_INLINE_CODE"], new Set(result.value));
    assert.deepEqual(decision, { allow: true });
  });
});

Deno.test("validateSideEffectNames names its source", () => {
  assert.deepEqual(validateSideEffectNames(["OTHER"], "blocked_side_effects"), {
    value: ["OTHER"],
  });
  assert.deepEqual(validateSideEffectNames(["X"], "blocked_side_effects"), {
    error:
      `blocked_side_effects contains invalid value(s): 'X'. Valid values (case-sensitive): ${SORTED_NAMES}.`,
  });
});
