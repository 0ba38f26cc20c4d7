import assert from "node:assert/strict";
import { checksValues, type Config } from "../../src/config/mod.ts";
import { SETTING_KEYS, SETTINGS } from "../../src/config/schema.ts";
import { configOf, errorOf, warningsOf } from "./fixture.ts";

const DEFAULT_BLOCKED = [
  "KILLS_AGENT_PROCESS",
  "MODIFIES_OS_SETTINGS",
  "MODIFIES_OS_USER_SETTINGS",
  "MODIFIES_PROTECTED_FILES",
  "RUNS_INLINE_CODE",
];

/** The contract's numeric variables: name, key, default, and whether 0 is allowed. */
const CONTRACT_INTEGERS: [string, keyof Config, number, boolean][] = [
  ["YIELDSHELL_MAX_OUTPUT_BYTES", "maxOutputBytes", 20_000, false],
  ["YIELDSHELL_MAX_BUFFER_BYTES", "maxBufferBytes", 262_144, false],
  ["YIELDSHELL_MAX_PROCESSES", "maxProcesses", 50, false],
  ["YIELDSHELL_DEFAULT_YIELD_MS", "defaultYieldMs", 30_000, true],
  ["YIELDSHELL_MAX_YIELD_MS", "maxYieldMs", 300_000, true],
  ["YIELDSHELL_DEFAULT_TIMEOUT_MS", "defaultTimeoutMs", 3_600_000, true],
  ["YIELDSHELL_PROCESS_RETENTION_MS", "processRetentionMs", 3_600_000, true],
  ["YIELDSHELL_MAX_RETAINED_PROCESSES", "maxRetainedProcesses", 100, true],
];

Deno.test("contract numeric variables parse like Python int()", async (t) => {
  for (const [name, key] of CONTRACT_INTEGERS) {
    for (const [text, expected] of [[" 1_234 ", 1234], ["+7", 7], ["0042", 42]] as const) {
      await t.step(`${name}=${JSON.stringify(text)} is ${expected}`, () => {
        const result = configOf({ env: { [name]: text } });
        assert.equal(result[key], expected);
        assert.deepEqual(warningsOf({ env: { [name]: text } }), []);
      });
    }
  }
});

Deno.test("an invalid contract numeric variable falls back with a warning", async (t) => {
  for (const [name, key, fallback, zeroAllowed] of CONTRACT_INTEGERS) {
    const bad = ["abc", "5.0", "1e3", "0x10", "1__0", "-1", ...(zeroAllowed ? [] : ["0"])];
    for (const text of bad) {
      await t.step(`${name}=${JSON.stringify(text)} uses ${fallback}`, () => {
        assert.equal(configOf({ env: { [name]: text } })[key], fallback);
        const [warning, ...rest] = warningsOf({ env: { [name]: text } });
        assert.deepEqual(rest, []);
        assert.match(warning, new RegExp(`^Invalid ${name}: received "`));
        assert.ok(warning.includes(JSON.stringify(text)), warning);
        assert.ok(warning.endsWith("; ignoring the variable"), warning);
      });
    }
    if (zeroAllowed) {
      await t.step(`${name}=0 is allowed`, () => {
        assert.equal(configOf({ env: { [name]: "0" } })[key], 0);
      });
    }
  }
  await t.step("the exact warning", () => {
    assert.deepEqual(warningsOf({ env: { YIELDSHELL_MAX_OUTPUT_BYTES: "0" } }), [
      'Invalid YIELDSHELL_MAX_OUTPUT_BYTES: received "0"; expected a positive integer; ignoring the variable',
    ]);
  });
  await t.step("an ignored variable leaves the config file's value in place", () => {
    const config = configOf({
      env: { YIELDSHELL_CONFIG: "/c.yaml", YIELDSHELL_MAX_PROCESSES: "many" },
      files: { "/c.yaml": "max_processes: 7\n" },
    });
    assert.equal(config.maxProcesses, 7);
  });
});

Deno.test("new variables are strict: a bad value stops startup", async (t) => {
  const cases: [string, string, string][] = [
    ["YIELDSHELL_PORT", "abc", "an integer from 0 to 65535"],
    ["YIELDSHELL_PORT", "65536", "an integer from 0 to 65535"],
    ["YIELDSHELL_PORT", "-1", "an integer from 0 to 65535"],
    ["YIELDSHELL_KEEPALIVE_INTERVAL_MS", "0", "a positive integer"],
    ["YIELDSHELL_MAX_HTTP_SESSIONS", "1.5", "a positive integer"],
    ["YIELDSHELL_MAX_CONCURRENT_REQUESTS", "none", "a positive integer"],
    ["YIELDSHELL_TRANSPORT", "tcp", 'stdio or http ("streamable-http" also means http)'],
    ["YIELDSHELL_TRUNCATION", "middle", "head or tail"],
    ["YIELDSHELL_HOST", "my host", "a host name or IP address"],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(`${name}=${JSON.stringify(text)}`, () => {
      assert.equal(
        errorOf({ env: { [name]: text } }),
        `Invalid ${name}: received ${JSON.stringify(text)}; expected ${expected}`,
      );
    });
  }
  await t.step("an invalid origin in the list names the variable and the entry", () => {
    assert.match(
      errorOf({ env: { YIELDSHELL_ALLOWED_ORIGINS: "https://ok.example, not an origin" } }),
      /^Invalid YIELDSHELL_ALLOWED_ORIGINS: received "not an origin"; expected origins such as/,
    );
  });
});

Deno.test("new variables fill their settings", () => {
  const config = configOf({
    env: {
      YIELDSHELL_TRANSPORT: "streamable-http",
      YIELDSHELL_HOST: "0.0.0.0",
      YIELDSHELL_PORT: "0",
      YIELDSHELL_AUTH_TOKEN: "s3cret-token-of-24-chars",
      YIELDSHELL_ALLOWED_ORIGINS: "https://App.Example.com, http://localhost:3000/",
      YIELDSHELL_MAX_HTTP_SESSIONS: "8",
      YIELDSHELL_MAX_CONCURRENT_REQUESTS: "16",
      YIELDSHELL_REQUEST_READ_TIMEOUT_MS: "1500",
      YIELDSHELL_BLACKLIST: " rm , ,dd",
      YIELDSHELL_WHITELIST: "ls",
      YIELDSHELL_SHELL: "/bin/bash",
      YIELDSHELL_KEEPALIVE_INTERVAL_MS: "250",
      YIELDSHELL_TRUNCATION: "tail",
    },
  });
  assert.equal(config.transport, "http");
  assert.equal(config.host, "0.0.0.0");
  assert.equal(config.port, 0);
  assert.equal(config.authToken, "s3cret-token-of-24-chars");
  assert.deepEqual(config.allowedOrigins, ["https://app.example.com", "http://localhost:3000"]);
  assert.equal(config.maxHttpSessions, 8);
  assert.equal(config.maxConcurrentRequests, 16);
  assert.equal(config.requestReadTimeoutMs, 1500);
  assert.deepEqual(config.blacklist, ["rm", "dd"]);
  assert.deepEqual(config.whitelist, ["ls"]);
  assert.equal(config.shell, "/bin/bash");
  assert.equal(config.keepaliveIntervalMs, 250);
  assert.equal(config.truncation, "tail");
});

Deno.test("regex variables: empty is off, invalid stops startup naming the variable", async (t) => {
  const names = [
    ["YIELDSHELL_DENY_COMMAND_REGEX", "denyCommandRegex"],
    ["YIELDSHELL_ALLOW_COMMAND_REGEX", "allowCommandRegex"],
    ["YIELDSHELL_REDACT_ENV_REGEX", "redactEnvRegex"],
  ] as const;
  for (const [name, key] of names) {
    await t.step(`${name} unset or empty is null`, () => {
      assert.equal(configOf()[key], null);
      assert.equal(configOf({ env: { [name]: "" } })[key], null);
    });
    await t.step(`${name} compiles Python syntax`, () => {
      const pattern = configOf({ env: { [name]: "(?P<word>rm)\\s+-rf" } })[key];
      assert.ok(pattern instanceof RegExp);
      assert.ok(pattern.test("sudo rm -rf /"));
      assert.ok(!pattern.test("rmdir x"));
    });
    await t.step(`${name} invalid`, () => {
      const error = errorOf({ env: { [name]: "(" } });
      assert.ok(error.startsWith(`${name} contains invalid regular expression '(': `), error);
      assert.ok(error.length > `${name} contains invalid regular expression '(': `.length);
    });
  }
  await t.step("checks run deny, allow, redact, then side effects; the first error wins", () => {
    const env = {
      YIELDSHELL_DENY_COMMAND_REGEX: "(",
      YIELDSHELL_ALLOW_COMMAND_REGEX: "[",
      YIELDSHELL_REDACT_ENV_REGEX: "(?x)",
      MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS: "NOPE",
    };
    assert.match(errorOf({ env }), /^YIELDSHELL_DENY_COMMAND_REGEX /);
    delete (env as Partial<typeof env>).YIELDSHELL_DENY_COMMAND_REGEX;
    assert.match(errorOf({ env }), /^YIELDSHELL_ALLOW_COMMAND_REGEX /);
    delete (env as Partial<typeof env>).YIELDSHELL_ALLOW_COMMAND_REGEX;
    assert.match(errorOf({ env }), /^YIELDSHELL_REDACT_ENV_REGEX /);
    delete (env as Partial<typeof env>).YIELDSHELL_REDACT_ENV_REGEX;
    assert.match(errorOf({ env }), /^MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS /);
  });
});

Deno.test("MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS follows the contract", async (t) => {
  const name = "MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS";
  const blocked = (value?: string) =>
    configOf({ env: value === undefined ? {} : { [name]: value } }).blockedSideEffects;
  await t.step("unset and empty keep the defaults", () => {
    assert.deepEqual(blocked(), DEFAULT_BLOCKED);
    assert.deepEqual(blocked(""), DEFAULT_BLOCKED);
    assert.deepEqual(warningsOf({ env: { [name]: "" } }), []);
  });
  await t.step("whitespace-only keeps the defaults and says so", () => {
    assert.deepEqual(blocked("  \t"), DEFAULT_BLOCKED);
    const [warning] = warningsOf({ env: { [name]: "  \t" } });
    assert.match(warning, /MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS/);
    assert.match(warning, /cleared nothing/);
  });
  await t.step('"," and " , " block nothing', () => {
    assert.deepEqual(blocked(","), []);
    assert.deepEqual(blocked(" , "), []);
  });
  await t.step("a list replaces the defaults; entries are trimmed", () => {
    assert.deepEqual(blocked(" DELETES_FILES ,, NONE "), ["DELETES_FILES", "NONE"]);
  });
  await t.step("invalid or lowercase names stop startup", () => {
    for (const value of ["deletes_files", "DELETES_FILES,INSTALLS_DEPENDENCIES"]) {
      const error = errorOf({ env: { [name]: value } });
      assert.ok(error.startsWith(`${name} contains invalid value(s): `), error);
      assert.ok(error.includes(value.split(",").at(-1)!), error);
      assert.match(error, /Valid values \(case-sensitive\): CHANGES_NETWORK_CONFIGURATION, /);
    }
  });
});

Deno.test("YIELDSHELL_ALLOWED_CWDS splits on the platform's separator", async (t) => {
  await t.step('":" on POSIX, empty entries dropped', () => {
    const config = configOf({ env: { YIELDSHELL_ALLOWED_CWDS: "/a::/b c:" } });
    assert.deepEqual(config.allowedCwds, ["/a", "/b c"]);
  });
  await t.step('";" on Windows keeps drive colons', () => {
    const config = configOf({
      env: { YIELDSHELL_ALLOWED_CWDS: "C:\\work;;D:\\repos;" },
      pathListSeparator: ";",
    });
    assert.deepEqual(config.allowedCwds, ["C:\\work", "D:\\repos"]);
  });
  await t.step('";" does not split on ":"', () => {
    const config = configOf({
      env: { YIELDSHELL_ALLOWED_CWDS: "/a:/b" },
      pathListSeparator: ";",
    });
    assert.deepEqual(config.allowedCwds, ["/a:/b"]);
  });
  await t.step("YIELDSHELL_DEFAULT_CWD is taken as is", () => {
    assert.equal(configOf({ env: { YIELDSHELL_DEFAULT_CWD: "rel/dir" } }).defaultCwd, "rel/dir");
  });
});

Deno.test("checksValues: zod is needed for any argument, setting variable or config file", () => {
  const variables = SETTING_KEYS.flatMap((key) => SETTINGS[key].env ?? []);
  assert.ok(variables.length > 30, `${variables.length} variables`);
  for (const name of [...variables, "YIELDSHELL_CONFIG"]) {
    assert.equal(checksValues({ argv: [], env: { [name]: "x" } }), true, name);
    assert.equal(checksValues({ argv: [], env: { [name]: "" } }), false, `${name} empty`);
  }
  assert.equal(
    checksValues({ argv: [], env: { HOME: "/root", YIELDSHELL_STARTUP_TRACE: "1" } }),
    false,
  );
  assert.equal(checksValues({ argv: ["--help"], env: {} }), true);
});
