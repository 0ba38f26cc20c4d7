import assert from "node:assert/strict";
import { configOf, errorOf, warningsOf } from "./fixture.ts";

Deno.test("sandbox: off by default, declared or strict from flag, variable or file", async (t) => {
  await t.step("default off", () => {
    assert.equal(configOf().sandbox, "off");
  });
  await t.step("flag", () => {
    assert.equal(configOf({ argv: ["--sandbox", "declared"] }).sandbox, "declared");
  });
  await t.step("variable", () => {
    assert.equal(configOf({ env: { YIELDSHELL_SANDBOX: "strict" } }).sandbox, "strict");
  });
  await t.step("file", () => {
    const files = { "c.yaml": "sandbox: declared\n" };
    assert.equal(configOf({ argv: ["--config", "c.yaml"], files }).sandbox, "declared");
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
    const config = configOf({
      argv: [
        "--sandbox=declared",
        "--allow-unconfined",
        "UNKNOWN, OTHER",
        "--allow-unconfined=UNKNOWN",
      ],
    });
    assert.deepEqual(config.allowUnconfined, ["UNKNOWN", "OTHER"]);
    const fromEnv = configOf({
      env: { YIELDSHELL_SANDBOX: "declared", YIELDSHELL_ALLOW_UNCONFINED: "MODIFIES_OS_SETTINGS" },
    });
    assert.deepEqual(fromEnv.allowUnconfined, ["MODIFIES_OS_SETTINGS"]);
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
    assert.deepEqual(
      warningsOf({ argv: ["--allow-unconfined", "OTHER", "--sandbox", "strict"] }),
      [
        "allow_unconfined is ignored because sandbox is strict; it applies to sandbox: declared only",
      ],
    );
    assert.deepEqual(
      warningsOf({ argv: ["--allow-unconfined", "OTHER", "--sandbox=declared"] }),
      [],
    );
  });
});
