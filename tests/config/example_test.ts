import assert from "node:assert/strict";
import { exampleConfigYaml } from "../../src/config/example.ts";
import { parseDocument } from "yaml";
import { z } from "zod";
import { parseConfigText } from "../../src/config/file.ts";
import { defaultConfig, SETTING_KEYS, SETTINGS } from "../../src/config/schema.ts";
import { configOf, CWD } from "./fixture.ts";

const EXAMPLE_PATH = new URL("../../config.example.yaml", import.meta.url);
const REGENERATE = "deno eval --ext=ts " +
  `'import { exampleConfigYaml } from "./src/config/example.ts"; ` +
  `Deno.writeTextFileSync("config.example.yaml", exampleConfigYaml())'`;

Deno.test("config.example.yaml", async (t) => {
  const text = await Deno.readTextFile(EXAMPLE_PATH);

  await t.step("is what the settings table generates", () => {
    assert.equal(text, exampleConfigYaml(), `config.example.yaml is stale; run: ${REGENERATE}`);
  });

  await t.step(
    "sets every key to its default, except those whose default depends (commented out)",
    () => {
      const { values, warnings } = parseConfigText(text, "config.example.yaml", {
        parseYaml: parseDocument,
        zod: z,
      });
      assert.deepEqual(warnings, []);
      const defaults = defaultConfig(CWD);
      for (const key of SETTING_KEYS) {
        if (SETTINGS[key].defaultText !== undefined) {
          assert.ok(!(key in values));
          assert.ok(text.includes(`# ${SETTINGS[key].fileKey}: `));
        } else {
          assert.deepEqual(values[key], defaults[key], key);
        }
      }
    },
  );

  await t.step("used as the config file, it resolves to the defaults", () => {
    const config = configOf({
      argv: ["--config", "example.yaml"],
      files: { "example.yaml": text },
    });
    assert.deepEqual(config, defaultConfig(CWD));
    assert.deepEqual(config, configOf());
  });

  await t.step("documents every key with its meaning", () => {
    for (const key of SETTING_KEYS) {
      const firstWords = SETTINGS[key].description.split(" ").slice(0, 4).join(" ");
      assert.ok(text.includes(firstWords), key);
    }
  });
});
