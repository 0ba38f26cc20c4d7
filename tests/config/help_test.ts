import assert from "node:assert/strict";
import { helpText } from "../../src/config/mod.ts";
import { COMMAND_OPTIONS, SETTING_KEYS, SETTINGS } from "../../src/config/schema.ts";

Deno.test("--help covers every setting with its flag, variable, file key and default", async (t) => {
  const text = helpText();
  for (const key of SETTING_KEYS) {
    const setting = SETTINGS[key];
    await t.step(key, () => {
      if (setting.flag !== undefined) assert.ok(text.includes(`--${setting.flag} <`), setting.flag);
      if (setting.env !== undefined) assert.ok(text.includes(setting.env), setting.env);
      assert.ok(text.includes(`File key: ${setting.fileKey}.`), setting.fileKey);
    });
  }
  await t.step("the command options", () => {
    assert.ok(text.includes("-h, --help"));
    assert.ok(text.includes("--version"));
    assert.ok(text.includes("--config <path>"));
    assert.ok(text.includes(COMMAND_OPTIONS.config.env));
  });
  await t.step("defaults", () => {
    for (
      const fragment of [
        "Default: 20000.",
        "Default: 262144.",
        "Default: 127.0.0.1.",
        "Default: 8000.",
        "Default: stdio.",
        "Default: head (tail for the tab-shell tools).",
        "Default: the directory yieldshell starts in.",
        "KILLS_AGENT_PROCESS, MODIFIES_OS_SETTINGS",
        "GIT_TERMINAL_PROMPT=0",
      ]
    ) {
      assert.ok(text.replaceAll(/\s+/g, " ").includes(fragment), fragment);
    }
  });
  await t.step("lines fit in 100 columns where words allow", () => {
    const long = text.split("\n").filter((line) => line.length > 100 && line.trim().includes(" "));
    assert.deepEqual(long, []);
  });
});

Deno.test("the settings table is consistent", async (t) => {
  const seen = new Set<string>();
  for (const key of SETTING_KEYS) {
    const { fileKey, env, flag } = SETTINGS[key];
    await t.step(key, () => {
      const snake = key.replaceAll(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      assert.equal(fileKey, snake, "file keys are the snake_case form of the config key");
      if (flag !== undefined) assert.match(flag, /^[a-z][a-z0-9-]*$/);
      if (env !== undefined) assert.match(env, /^(MCP_)?YIELDSHELL_[A-Z0-9_]+$/);
      for (const name of [fileKey, env && `env:${env}`, flag && `flag:${flag}`]) {
        if (name === undefined) continue;
        assert.ok(!seen.has(name), `${name} is used twice`);
        seen.add(name);
      }
    });
  }
});
