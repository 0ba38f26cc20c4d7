import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { parseDocument } from "yaml";
import { z } from "zod";
import { readCli } from "../../src/config/cli.ts";
import { readEnv } from "../../src/config/env.ts";
import { parseConfigText } from "../../src/config/file.ts";
import type { Config } from "../../src/config/schema.ts";
import { configOf, errorOf, warningsOf } from "./fixture.ts";

function fromFlags(...argv: string[]): Partial<Config> {
  const reading = readCli(argv, { parseArgs, zod: z });
  assert.equal(reading.kind, "settings");
  return (reading as Extract<typeof reading, { kind: "settings" }>).values;
}

function fromEnv(env: Record<string, string>): Partial<Config> {
  return readEnv(env, { pathListSeparator: ":", zod: z }).values;
}

function fromFile(text: string): Partial<Config> {
  return parseConfigText(text, "c.yaml", { parseYaml: parseDocument, zod: z }).values;
}

Deno.test("sandbox: off by default, declared or strict from flag, variable or file", async (t) => {
  await t.step("default off", () => {
    assert.equal(configOf().sandbox, "off");
  });
  await t.step("each source reads each mode", () => {
    for (const mode of ["off", "declared", "strict"]) {
      assert.equal(fromFlags("--sandbox", mode).sandbox, mode);
      assert.equal(fromFlags(`--sandbox=${mode}`).sandbox, mode);
      assert.equal(fromEnv({ YIELDSHELL_SANDBOX: mode }).sandbox, mode);
      assert.equal(fromFile(`sandbox: ${mode}\n`).sandbox, mode);
    }
  });
  await t.step("flag beats variable", () => {
    const config = configOf({ argv: ["--sandbox=off"], env: { YIELDSHELL_SANDBOX: "strict" } });
    assert.equal(config.sandbox, "off");
  });
  await t.step("bad values name the source and the choices", () => {
    assert.equal(
      errorOf({ argv: ["--sandbox", "on"] }),
      'Invalid --sandbox: received "on"; expected off, declared or strict',
    );
    assert.equal(
      errorOf({ env: { YIELDSHELL_SANDBOX: "Declared" } }),
      'Invalid YIELDSHELL_SANDBOX: received "Declared"; expected off, declared or strict',
    );
    assert.match(
      errorOf({ argv: ["--config", "c.yaml"], files: { "c.yaml": "sandbox: true\n" } }),
      /^Invalid sandbox in config file c\.yaml: received true; expected off, declared or strict/,
    );
  });
});

Deno.test("allow_unconfined: only categories the sandbox cannot confine", async (t) => {
  await t.step("default none", () => {
    assert.deepEqual(configOf().allowUnconfined, []);
  });
  await t.step("comma list in flag and variable, repeatable flag, duplicates dropped", () => {
    const flags = fromFlags("--allow-unconfined", "UNKNOWN, OTHER", "--allow-unconfined=UNKNOWN");
    assert.deepEqual(flags.allowUnconfined, ["UNKNOWN", "OTHER"]);
    const env = fromEnv({ YIELDSHELL_ALLOW_UNCONFINED: "MODIFIES_OS_SETTINGS" });
    assert.deepEqual(env.allowUnconfined, ["MODIFIES_OS_SETTINGS"]);
    const file = fromFile("allow_unconfined: [OTHER, RUNS_PRIVILEGED_COMMANDS]\n");
    assert.deepEqual(file.allowUnconfined, ["OTHER", "RUNS_PRIVILEGED_COMMANDS"]);
  });
  await t.step("a confinable or unknown category is an error listing the valid ones", () => {
    for (const name of ["NONE", "MODIFIES_WORKSPACE_FILES", "unknown"]) {
      const error = errorOf({ argv: ["--allow-unconfined", name] });
      assert.match(error, new RegExp(`^Invalid --allow-unconfined: received "${name}"; `));
      const listed = error.split("expected a list of side effects the sandbox cannot confine: ")[1];
      assert.ok(listed.split(", ").includes("MODIFIES_OUTSIDE_WORKSPACE"), error);
      assert.ok(!listed.split(", ").includes("NONE"), error);
    }
  });
  await t.step("warns when the sandbox mode ignores it", () => {
    assert.deepEqual(warningsOf({ argv: ["--allow-unconfined", "OTHER"] }), [
      "allow_unconfined is ignored because sandbox is off; it applies to sandbox: declared only",
    ]);
  });
});
