import assert from "node:assert/strict";
import fc from "fast-check";
import { BashParser } from "../../src/policy/command_names/bash_parser.ts";
import { loadCommandNames, type NameLists } from "../../src/policy/command_names/mod.ts";
import type { Decision } from "../../src/policy/decision.ts";
import { testSeed } from "../seed.ts";
import {
  CORPUS,
  mutate,
  mutationArbitrary,
  scriptArbitrary,
  SPECIALS,
  TOKENS,
} from "./bash_generators.ts";

/** Fixed by default so the gate is deterministic; `deno task fuzz` explores fresh seeds. */
const SEED = testSeed("command-name fuzz", 1_301_013);

/**
 * Per-call bound: a hang detector, not a speed measure (speed is `deno task bench`'s). Inputs
 * that hit the 100 ms parse budget take about 110 ms of CPU; on a shared 2-core machine under
 * load that doubled past the 250 ms this bound once had, one run in five; 5 s detects a hang only.
 */
const MAX_CALL_MS = 5_000;
/** The parse budget of this suite's parser, well inside the per-call bound. */
const PARSE_TIMEOUT_MS = 100;

const parser = await BashParser.load({ parseTimeoutMs: PARSE_TIMEOUT_MS });
const { checkCommandNames, extractCommandNames } = await loadCommandNames();

const LISTS: NameLists[] = [
  { blacklist: ["rm"], whitelist: [] },
  { blacklist: [], whitelist: ["git", "ls", "echo", "wc"] },
];

function assertDecision(decision: Decision, command: string): void {
  const where = JSON.stringify(command);
  if (decision.allow) {
    assert.deepEqual(Object.keys(decision), ["allow"], where);
    return;
  }
  assert.equal(decision.allow, false, where);
  assert.equal(typeof decision.reason, "string", where);
  assert.match(decision.reason, /^[A-Z]/, `reason not in sentence case for ${where}`);
  assert.ok(!decision.reason.endsWith("."), `reason ends with a period for ${where}`);
}

interface Timing {
  slowestMs: number;
  slowestCommand: string;
  calls: number;
}

function newTiming(): Timing {
  return { slowestMs: 0, slowestCommand: "", calls: 0 };
}

/** Runs the checker under every list, asserting that it returns a decision in time. */
function check(command: string, timing: Timing): Decision[] {
  return LISTS.map((lists) => {
    const start = performance.now();
    const decision = checkCommandNames(command, lists, parser);
    const elapsed = performance.now() - start;
    timing.calls++;
    if (elapsed > timing.slowestMs) {
      timing.slowestMs = elapsed;
      timing.slowestCommand = command;
    }
    assert.ok(
      elapsed < MAX_CALL_MS,
      `checkCommandNames took ${elapsed.toFixed(1)} ms for ${
        JSON.stringify(command.slice(0, 200))
      }`,
    );
    assertDecision(decision, command);
    return decision;
  });
}

Deno.test("fuzz: bash-ish token soup never throws and stays fast", () => {
  const timing = newTiming();
  const soup = fc.tuple(
    fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }),
    fc.constantFrom(" ", "", "  "),
  ).map(([tokens, glue]) => tokens.join(glue));
  fc.assert(fc.property(soup, (command) => void check(command, timing)), {
    seed: SEED,
    numRuns: 2500,
  });
  assert.ok(timing.calls >= 5000);
});

Deno.test("fuzz: mutated table cases never throw and stay fast", () => {
  const timing = newTiming();
  const mutated = fc.tuple(
    fc.constantFrom(...CORPUS),
    fc.array(mutationArbitrary, { minLength: 1, maxLength: 8 }),
  ).map(([source, mutations]) => mutate(source, mutations));
  fc.assert(fc.property(mutated, (command) => void check(command, timing)), {
    seed: SEED,
    numRuns: 3000,
  });
});

Deno.test("fuzz: arbitrary strings (any code point) never throw", () => {
  const timing = newTiming();
  const strings = fc.oneof(
    fc.string({ maxLength: 120 }),
    fc.string({ unit: "binary", maxLength: 60 }),
    fc.string({ unit: fc.constantFrom(...SPECIALS, "a", "r", "m", "\r", "\u0000"), maxLength: 80 }),
  );
  fc.assert(fc.property(strings, (command) => void check(command, timing)), {
    seed: SEED,
    numRuns: 1500,
  });
});

Deno.test("fuzz: generated scripts agree with their own extracted names", () => {
  const timing = newTiming();
  fc.assert(
    fc.property(scriptArbitrary, (command) => {
      check(command, timing);
      const tree = parser.parse(command);
      try {
        if (tree.rootNode.hasError) return;
        const result = extractCommandNames(tree.rootNode, parser, { source: command });
        if ("unknown" in result) return;
        // Listing exactly the names found must allow the command (unless PATH changes) ...
        const exact = checkCommandNames(
          command,
          { blacklist: [], whitelist: result.names },
          parser,
        );
        // A busy machine can run a deep script past the parse budget: that refusal is the
        // budget at work (tested below), not a disagreement about names.
        if (!exact.allow && /ms limit/.test(exact.reason)) return;
        if (result.names.length > 0) {
          assert.deepEqual(exact, { allow: true }, JSON.stringify(command));
        }
        // ... and blacklisting any one of them must reject it.
        for (const name of result.names) {
          const blocked = checkCommandNames(command, { blacklist: [name], whitelist: [] }, parser);
          assert.equal(blocked.allow, false, `${name} not blocked in ${JSON.stringify(command)}`);
        }
        // A generated script that runs rm somewhere is never allowed under blacklist [rm].
        if (result.names.some((name) => name === "rm")) {
          assert.equal(checkCommandNames(command, LISTS[0], parser).allow, false);
        }
      } finally {
        tree.delete();
      }
    }),
    { seed: SEED, numRuns: 1500 },
  );
});

Deno.test("fuzz: deep nesting and crafted slow inputs are bounded", async (t) => {
  const timing = newTiming();
  await t.step("nested substitutions, shells and wrappers still find rm", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.constantFrom(0, 1, 2), (depth, shape) => {
        let command = "rm x";
        if (shape === 0) command = `${"echo $(".repeat(depth)}rm x${")".repeat(depth)}`;
        else if (shape === 1) command = `${"sudo ".repeat(depth)}rm x`;
        else {
          for (let i = 0; i < Math.min(depth, 6); i++) {
            command = `bash -c '${command.replaceAll("'", "'\\''")}'`;
          }
        }
        const [blacklist] = check(command, timing);
        assert.equal(blacklist.allow, false, JSON.stringify(command.slice(0, 120)));
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
  await t.step("inputs that make tree-sitter-bash slow hit the parse budget", () => {
    for (
      const command of [
        "x=(".repeat(4000),
        "${".repeat(8000),
        "<<E ".repeat(4000),
        'echo "'.repeat(6000),
        "[[ ".repeat(12000),
        "case x in ".repeat(3000),
        `bash -c '${"x=(".repeat(3000)}'`,
        "a".repeat(70_000),
      ]
    ) {
      const decisions = check(command, timing);
      if (command.length > 65_536) {
        for (const decision of decisions) {
          assert.match(decision.allow ? "" : decision.reason, /limit/);
        }
      }
    }
  });
});
