import assert from "node:assert/strict";
import { configOf, errorOf, warningsOf } from "./fixture.ts";
import { TAB_SHELL_CONFIG_URL, TAB_SHELL_FLAGS } from "../fixtures/tab_shell_seed.ts";

const SEED_CONFIG = Deno.readTextFileSync(TAB_SHELL_CONFIG_URL);
const FILE = "/home/me/config.yaml";

Deno.test("tab-shell-mcp's example config.yaml is accepted as is, in its units", () => {
  const startup = {
    argv: ["--tools", "tab-shell", "--config", FILE],
    files: { [FILE]: SEED_CONFIG },
  };
  const config = configOf(startup);
  assert.equal(config.tools, "tab-shell");
  assert.equal(config.shell, null, 'shell: "" is the default shell');
  assert.equal(config.defaultTimeoutMs, 30_000);
  assert.equal(config.defaultTimeout, 30);
  assert.equal(config.maxOutputLength, 50_000);
  assert.equal(config.truncation, "tail");
  assert.equal(config.outputTruncationMode, "tail");
  assert.equal(config.keepaliveIntervalMs, 5_000);
  assert.equal(config.processRetentionMs, 3_600_000);
  assert.deepEqual(config.blacklist, ["rm", "mkfs", "dd", "format"]);
  assert.deepEqual(config.whitelist, []);
  assert.equal(config.transport, "stdio");
  assert.equal(config.port, 8000);
  assert.deepEqual(config.nonInteractiveEnv, {
    GIT_TERMINAL_PROMPT: "0",
    CI: "true",
    DEBIAN_FRONTEND: "noninteractive",
  });
  assert.deepEqual(warningsOf(startup), []);
});

Deno.test("tab-shell-mcp's example command line is accepted, in its units", () => {
  const config = configOf({ argv: ["--tools", "tab-shell", ...TAB_SHELL_FLAGS] });
  assert.equal(config.shell, "/bin/bash");
  assert.equal(config.defaultTimeoutMs, 60_000);
  assert.equal(config.maxOutputLength, 100_000);
  assert.equal(config.truncation, "tail");
  assert.equal(config.processRetentionMs, 3_600_000);
  assert.deepEqual(config.blacklist, ["rm", "mkfs", "dd", "format"]);
  assert.deepEqual(config.whitelist, []);
  assert.equal(config.maxBufferBytes, 400_000, "a stream of 100000 characters fits the ring");
});

Deno.test("seconds become milliseconds, and tab-shell-mcp's 0 TTL keeps records", async (t) => {
  await t.step("fractions", () => {
    const config = configOf({
      argv: ["--timeout", "2.5", "--completed-task-ttl", ".25", "--config", FILE],
      files: { [FILE]: "keepalive_interval: 0.05\n" },
    });
    assert.equal(config.defaultTimeoutMs, 2_500);
    assert.equal(config.processRetentionMs, 250);
    assert.equal(config.keepaliveIntervalMs, 50);
  });
  await t.step("a tiny positive value never becomes our 0", () => {
    const config = configOf({ argv: ["--timeout", "1e-6", "--completed-task-ttl", "0.0001"] });
    assert.equal(config.defaultTimeoutMs, 1);
    assert.equal(config.processRetentionMs, 1);
  });
  await t.step("completed_task_ttl 0 keeps finished records until exit", () => {
    const config = configOf({ argv: ["--completed-task-ttl", "0"] });
    assert.equal(config.processRetentionMs, Infinity);
  });
  await t.step("output_truncation_mode is trimmed and lower-cased as tab-shell-mcp did", () => {
    const config = configOf({
      argv: ["--config", FILE],
      files: { [FILE]: "output_truncation_mode: ' HEAD '\n" },
    });
    assert.equal(config.truncation, "head");
  });
  await t.step("null values are unset, as tab-shell-mcp skipped them", () => {
    const config = configOf({
      argv: ["--config", FILE],
      files: { [FILE]: "default_timeout: null\ncompleted_task_ttl: null\n" },
    });
    assert.equal(config.defaultTimeoutMs, 3_600_000);
    assert.equal(config.defaultTimeout, null);
    assert.equal(config.processRetentionMs, 3_600_000);
  });
});

Deno.test("values tab-shell-mcp took but could not honour are refused", async (t) => {
  const cases: [string[], Record<string, string>, string][] = [
    [
      ["--timeout", "0"],
      {},
      'Invalid --timeout: received "0"; expected a positive number of seconds',
    ],
    [
      ["--completed-task-ttl=-1"],
      {},
      'Invalid --completed-task-ttl: received "-1"; expected a non-negative number of seconds',
    ],
    [
      ["--config", FILE],
      { [FILE]: "keepalive_interval: 0\n" },
      `Invalid keepalive_interval in config file ${FILE}: received 0; expected a positive number of seconds`,
    ],
    [
      ["--max-output-length=-5"],
      {},
      'Invalid --max-output-length: received "-5"; expected a positive integer (characters)',
    ],
    [
      ["--output-truncation-mode", "middle"],
      {},
      'Invalid --output-truncation-mode: received "middle"; expected head or tail',
    ],
    [
      ["--tools", "tabshell"],
      {},
      'Invalid --tools: received "tabshell"; expected yieldshell, tab-shell or both',
    ],
  ];
  for (const [argv, files, expected] of cases) {
    await t.step(argv.join(" "), () => assert.equal(errorOf({ argv, files }), expected));
  }
});

Deno.test("both spellings of one setting in one source are refused", async (t) => {
  await t.step("on the command line", () => {
    assert.equal(
      errorOf({ argv: ["--timeout", "60", "--timeout-ms", "60000"] }),
      "Cannot use both --timeout (tab-shell-mcp's name, in seconds) and --timeout-ms (milliseconds) in the command line: they set the same thing; keep one",
    );
  });
  await t.step("in one config file", () => {
    assert.equal(
      errorOf({
        argv: ["--config", FILE],
        files: { [FILE]: "completed_task_ttl: 0\nprocess_retention_ms: 0\n" },
      }),
      `Cannot use both completed_task_ttl (tab-shell-mcp's name, in seconds, 0 keeping records) and process_retention_ms (milliseconds, 0 reaping at once) in config file ${FILE}: they set the same thing; keep one`,
    );
    assert.match(
      errorOf({
        argv: ["--config", FILE],
        files: { [FILE]: "output_truncation_mode: tail\ntruncation: head\n" },
      }),
      /^Cannot use both output_truncation_mode \(tab-shell-mcp's name\) and truncation in config/,
    );
  });
});

Deno.test("across sources the stronger one wins, and says so", async (t) => {
  const files = { [FILE]: "default_timeout: 45\nkeepalive_interval: 1\n" };
  await t.step("our flag over their key", () => {
    const startup = { argv: ["--config", FILE, "--timeout-ms", "1000"], files };
    const config = configOf(startup);
    assert.equal(config.defaultTimeoutMs, 1_000);
    assert.equal(config.defaultTimeout, 1, "the tab-shell tools follow the winner");
    assert.ok(
      warningsOf(startup).includes(
        `--timeout-ms (the command line) wins over default_timeout (config file ${FILE}), which sets the same thing`,
      ),
    );
  });
  await t.step("their flag over our variable", () => {
    const startup = {
      argv: ["--config", FILE, "--timeout", "2"],
      env: { YIELDSHELL_KEEPALIVE_INTERVAL_MS: "700", YIELDSHELL_DEFAULT_TIMEOUT_MS: "9" },
      files,
    };
    const config = configOf(startup);
    assert.equal(config.defaultTimeoutMs, 2_000);
    assert.equal(config.keepaliveIntervalMs, 700, "the variable beats the file");
    assert.deepEqual(warningsOf(startup), [
      "--timeout (the command line) wins over YIELDSHELL_DEFAULT_TIMEOUT_MS (the environment), which sets the same thing",
      `YIELDSHELL_KEEPALIVE_INTERVAL_MS (the environment) wins over keepalive_interval (config file ${FILE}), which sets the same thing`,
    ]);
  });
});

Deno.test("the tab-shell tools keep tab-shell-mcp's defaults until either spelling is given", () => {
  const unset = configOf({ argv: ["--tools", "both"] });
  assert.equal(unset.defaultTimeout, null, "execute_shell_command then kills after 30 s");
  assert.equal(unset.outputTruncationMode, null, "and keeps the tail");
  assert.equal(unset.defaultTimeoutMs, 3_600_000);
  assert.equal(unset.truncation, "head");
  const ours = configOf({ argv: ["--tools", "both", "--truncation", "tail", "--timeout-ms", "0"] });
  assert.equal(ours.outputTruncationMode, "tail");
  assert.equal(ours.defaultTimeout, 0, "0 is no limit for every tool");
});

Deno.test("the profile setting comes from a flag, a variable or the file", () => {
  assert.equal(configOf({ env: { YIELDSHELL_TOOLS: "both" } }).tools, "both");
  assert.equal(
    configOf({ argv: ["--config", FILE], files: { [FILE]: "tools: tab-shell\n" } }).tools,
    "tab-shell",
  );
  assert.equal(
    configOf({ argv: ["--tools=both"], env: { YIELDSHELL_TOOLS: "tab-shell" } }).tools,
    "both",
  );
});

Deno.test("settings that only matter with the profile adjust or warn", async (t) => {
  await t.step("max_output_length without the tab-shell tools", () => {
    assert.deepEqual(warningsOf({ argv: ["--max-output-length", "10"] }), [
      "--max-output-length (the command line) only applies to the tab-shell tools, which --tools yieldshell does not serve; pass --tools tab-shell or both",
    ]);
  });
  await t.step("a ring buffer set too small for max_output_length", () => {
    const startup = { argv: ["--tools", "tab-shell", "--max-buffer-bytes", "1000"] };
    assert.equal(configOf(startup).maxBufferBytes, 1_000);
    assert.match(
      warningsOf(startup)[0],
      /^--max-buffer-bytes \(the command line\) is 1000, below 200000/,
    );
  });
  await t.step("UNKNOWN blocked while the tab-shell tools are served", () => {
    const warnings = warningsOf({
      argv: ["--tools", "both", "--blocked-side-effects", "UNKNOWN"],
    });
    assert.match(
      warnings[0],
      /^blocked_side_effects lists UNKNOWN, which every execute_shell_command/,
    );
  });
});
