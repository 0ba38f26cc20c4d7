import assert from "node:assert/strict";
import { defaultConfig } from "../../src/config/schema.ts";
import { configOf, CWD, errorOf, warningsOf } from "./fixture.ts";

Deno.test("with nothing set, the config is the defaults", () => {
  const config = configOf();
  assert.deepEqual(config, defaultConfig(CWD));
  assert.deepEqual(config, {
    defaultCwd: CWD,
    allowedCwds: [],
    maxOutputBytes: 20_000,
    maxBufferBytes: 262_144,
    maxProcesses: 50,
    maxProcessesPerSession: null,
    defaultYieldMs: 30_000,
    maxYieldMs: 300_000,
    defaultTimeoutMs: 3_600_000,
    processRetentionMs: 3_600_000,
    maxRetainedProcesses: 100,
    denyCommandRegex: null,
    allowCommandRegex: null,
    redactEnvRegex: null,
    blockedSideEffects: [
      "KILLS_AGENT_PROCESS",
      "MODIFIES_OS_SETTINGS",
      "MODIFIES_OS_USER_SETTINGS",
      "MODIFIES_PROTECTED_FILES",
      "RUNS_INLINE_CODE",
    ],
    transport: "stdio",
    host: "127.0.0.1",
    port: 8000,
    authToken: null,
    allowedOrigins: [],
    maxHttpSessions: 64,
    maxConcurrentRequests: 128,
    requestReadTimeoutMs: 30_000,
    blacklist: [],
    whitelist: [],
    shell: null,
    keepaliveIntervalMs: 5000,
    truncation: "head",
    nonInteractiveEnv: {
      GIT_TERMINAL_PROMPT: "0",
      CI: "true",
      DEBIAN_FRONTEND: "noninteractive",
      PAGER: "cat",
      GIT_PAGER: "cat",
    },
    spool: "on",
    spoolDir: null,
    maxSpoolBytes: 1_073_741_824,
    maxSpoolTotalBytes: 4_294_967_296,
    sandbox: "off",
    allowUnconfined: [],
    tools: "yieldshell",
    maxOutputLength: 50_000,
    defaultTimeout: null,
    outputTruncationMode: null,
    completedTaskTtl: null,
    keepaliveInterval: null,
  });
  assert.deepEqual(warningsOf(), []);
});

Deno.test("each resolution gets its own lists and maps", () => {
  const first = configOf();
  first.blockedSideEffects.push("NONE");
  first.nonInteractiveEnv.EXTRA = "1";
  const second = configOf();
  assert.ok(!second.blockedSideEffects.includes("NONE"));
  assert.ok(!("EXTRA" in second.nonInteractiveEnv));
});

Deno.test("HTTP on a non-loopback host needs an auth token", async (t) => {
  await t.step("refused without one", () => {
    for (const host of ["0.0.0.0", "192.168.1.10", "::", "example.com"]) {
      assert.equal(
        errorOf({ argv: ["--transport", "http", "--host", host] }),
        `Refusing to bind ${host} without an auth token; set --auth-token or YIELDSHELL_AUTH_TOKEN, or bind 127.0.0.1`,
      );
    }
  });
  await t.step("an empty token is no token", () => {
    assert.match(
      errorOf({ argv: ["--transport=http", "--host=0.0.0.0", "--auth-token="] }),
      /^Refusing to bind 0.0.0.0 without an auth token/,
    );
  });
  await t.step("accepted with a token from any source", () => {
    const argv = ["--transport", "http", "--host", "0.0.0.0"];
    const t = "a-token-of-16-ch";
    assert.equal(configOf({ argv: [...argv, "--auth-token", t] }).authToken, t);
    assert.equal(configOf({ argv, env: { YIELDSHELL_AUTH_TOKEN: t } }).authToken, t);
    const files = { "/c.yaml": `auth_token: ${t}\n` };
    assert.equal(configOf({ argv: [...argv, "--config", "/c.yaml"], files }).authToken, t);
  });
  await t.step("a token shorter than 16 characters is refused wherever it comes from", () => {
    const advice = "an auth token needs at least 16; generate one with: openssl rand -hex 32";
    const short = "fifteen-chars!!";
    assert.equal(
      errorOf({ argv: ["--auth-token", short] }),
      `--auth-token is too short (15 characters); ${advice}`,
    );
    assert.equal(
      errorOf({ env: { YIELDSHELL_AUTH_TOKEN: short } }),
      `YIELDSHELL_AUTH_TOKEN is too short (15 characters); ${advice}`,
    );
    const files = { "/c.yaml": `auth_token: ${short}\n` };
    const fromFile = errorOf({ argv: ["--config", "/c.yaml"], files });
    assert.match(fromFile, /^auth_token in .*c\.yaml is too short \(15 characters\)/);
    assert.ok(!fromFile.includes(short), "the token is not echoed");
  });
  await t.step("a token no Authorization header could carry is refused", () => {
    for (const token of ["sixteen chars ok", "sixteen-chars-\u00e9k", "tab\tseparated-token"]) {
      assert.match(
        errorOf({ argv: ["--auth-token", token] }),
        /^--auth-token contains spaces or characters other than printable ASCII, which an Authorization header cannot carry; generate one with: openssl rand -hex 32$/,
      );
    }
  });
  await t.step("loopback hosts need none", () => {
    for (const host of ["127.0.0.1", "127.8.9.10", "localhost", "::1", "[::1]"]) {
      assert.equal(configOf({ argv: ["--transport", "http", "--host", host] }).host, host);
    }
  });
  await t.step("stdio binds nothing, so the host does not matter", () => {
    assert.equal(configOf({ env: { YIELDSHELL_HOST: "0.0.0.0" } }).transport, "stdio");
  });
});

Deno.test("a blacklist next to a whitelist draws a warning", () => {
  assert.deepEqual(
    warningsOf({ argv: ["--blacklist", "rm", "--whitelist", "ls"] }),
    ["The blacklist is ignored because a whitelist is set"],
  );
});

Deno.test("warnings from all sources are collected", () => {
  const warnings = warningsOf({
    env: {
      YIELDSHELL_MAX_PROCESSES: "lots",
      MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS: " ",
      YIELDSHELL_WHITELIST: "ls",
      YIELDSHELL_BLACKLIST: "rm",
    },
  });
  assert.equal(warnings.length, 3, warnings.join("\n"));
});

Deno.test("allowed cwds without a default cwd under them", async (t) => {
  await t.step("a start directory outside the roots gives way to the first root, said once", () => {
    const env = { YIELDSHELL_ALLOWED_CWDS: "/work/a:/work/b" };
    assert.equal(configOf({ env }).defaultCwd, "/work/a");
    assert.deepEqual(warningsOf({ env }), [
      `The start directory ${CWD} is not under the allowed cwds (/work/a, /work/b), so commands that pass no cwd run in /work/a, the first of them; set --default-cwd to choose another`,
    ]);
  });
  await t.step("a start directory under a root stays, without a word", () => {
    const env = { YIELDSHELL_ALLOWED_CWDS: "/work:/srv" };
    assert.equal(configOf({ env }).defaultCwd, CWD);
    assert.deepEqual(warningsOf({ env }), []);
  });
  await t.step("an explicit default cwd outside the roots is refused at startup", () => {
    assert.equal(
      errorOf({ argv: ["--allowed-cwd", "/work/a", "--default-cwd", "/elsewhere"] }),
      "Default cwd /elsewhere is not under the allowed cwds (/work/a), so every command without a cwd would fail; set --default-cwd (YIELDSHELL_DEFAULT_CWD, default_cwd) to a directory under one of them, or allow it",
    );
  });
  await t.step("an explicit default cwd under a root is kept", () => {
    const argv = ["--allowed-cwd", "/work", "--default-cwd", "/work/app"];
    assert.equal(configOf({ argv }).defaultCwd, "/work/app");
  });
});
