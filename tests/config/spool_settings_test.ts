import assert from "node:assert/strict";
import { configOf, errorOf } from "./fixture.ts";

Deno.test("spool settings come from flags, variables and the file", async (t) => {
  await t.step("spool: off by flag, variable or file; booleans in the file", () => {
    assert.equal(configOf({ argv: ["--spool", "off"] }).spool, "off");
    assert.equal(configOf({ env: { YIELDSHELL_SPOOL: "off" } }).spool, "off");
    assert.equal(
      configOf({ argv: ["--config", "c.yaml"], files: { "c.yaml": "spool: off" } }).spool,
      "off",
    );
    const json = { "c.json": '{"spool": false}' };
    assert.equal(configOf({ argv: ["--config", "c.json"], files: json }).spool, "off");
    assert.equal(
      configOf({ argv: ["--spool", "off"], env: { YIELDSHELL_SPOOL: "on" } }).spool,
      "off",
    );
  });

  await t.step("spool_dir, max_spool_bytes and max_spool_total_bytes", () => {
    const config = configOf({
      argv: ["--spool-dir", "/var/tmp/ys", "--max-spool-bytes", "1048576"],
      env: { YIELDSHELL_MAX_SPOOL_TOTAL_BYTES: "8388608", YIELDSHELL_SPOOL_DIR: "/ignored" },
    });
    assert.equal(config.spoolDir, "/var/tmp/ys");
    assert.equal(config.maxSpoolBytes, 1_048_576);
    assert.equal(config.maxSpoolTotalBytes, 8_388_608);
    assert.equal(configOf({ env: { YIELDSHELL_SPOOL_DIR: "" } }).spoolDir, null);
    const file = { "c.yaml": "spool_dir: /data/spool\nmax_spool_bytes: 4096" };
    const fromFile = configOf({ argv: ["--config", "c.yaml"], files: file });
    assert.equal(fromFile.spoolDir, "/data/spool");
    assert.equal(fromFile.maxSpoolBytes, 4096);
  });

  await t.step("bad values stop the server and name the source", () => {
    assert.match(errorOf({ argv: ["--spool", "maybe"] }), /--spool.*on or off/);
    assert.match(
      errorOf({ env: { YIELDSHELL_MAX_SPOOL_BYTES: "0" } }),
      /YIELDSHELL_MAX_SPOOL_BYTES.*positive integer/,
    );
    assert.match(
      errorOf({ argv: ["--max-spool-total-bytes", "lots"] }),
      /--max-spool-total-bytes.*positive integer/,
    );
  });
});
