import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { readCli } from "../../src/config/cli.ts";
import { configOf, errorOf, resolve } from "./fixture.ts";

Deno.test("flags fill their settings", () => {
  const config = configOf({
    argv: [
      "--default-cwd=/work",
      "--allowed-cwd",
      "/work",
      "--allowed-cwd",
      "/tmp/a,b",
      "--max-output-bytes",
      "1_000",
      "--max-buffer-bytes",
      "4096",
      "--max-processes",
      "3",
      "--yield-ms",
      "0",
      "--max-yield-ms",
      "10",
      "--timeout-ms",
      "0",
      "--process-retention-ms",
      "5",
      "--max-retained-processes",
      "0",
      "--allow-command-regex",
      "^git ",
      "--redact-env-regex",
      "TOKEN|SECRET",
      "--blocked-side-effects",
      "DELETES_FILES, EXPOSES_SECRETS",
      "--transport",
      "http",
      "--host",
      "localhost",
      "--port",
      "9000",
      "--allowed-origin",
      "https://a.example",
      "--allowed-origin=https://b.example:8443",
      "--max-http-sessions",
      "2",
      "--max-concurrent-requests",
      "4",
      "--blacklist",
      "rm, mkfs",
      "--blacklist",
      "dd",
      "--whitelist",
      "git,ls",
      "--shell",
      "/bin/zsh",
      "--keepalive-interval-ms",
      "1000",
      "--truncation",
      "tail",
    ],
  });
  assert.equal(config.defaultCwd, "/work");
  assert.deepEqual(config.allowedCwds, ["/work", "/tmp/a,b"]);
  assert.equal(config.maxOutputBytes, 1000);
  assert.equal(config.maxBufferBytes, 4096);
  assert.equal(config.maxProcesses, 3);
  assert.equal(config.defaultYieldMs, 0);
  assert.equal(config.maxYieldMs, 10);
  assert.equal(config.defaultTimeoutMs, 0);
  assert.equal(config.processRetentionMs, 5);
  assert.equal(config.maxRetainedProcesses, 0);
  assert.equal(config.denyCommandRegex, null);
  assert.equal(config.allowCommandRegex?.test("git status"), true);
  assert.equal(config.redactEnvRegex?.test("GH_TOKEN"), true);
  assert.deepEqual(config.blockedSideEffects, ["DELETES_FILES", "EXPOSES_SECRETS"]);
  assert.equal(config.transport, "http");
  assert.equal(config.host, "localhost");
  assert.equal(config.port, 9000);
  assert.deepEqual(config.allowedOrigins, ["https://a.example", "https://b.example:8443"]);
  assert.equal(config.maxHttpSessions, 2);
  assert.equal(config.maxConcurrentRequests, 4);
  assert.deepEqual(config.blacklist, ["rm", "mkfs", "dd"]);
  assert.deepEqual(config.whitelist, ["git", "ls"]);
  assert.equal(config.shell, "/bin/zsh");
  assert.equal(config.keepaliveIntervalMs, 1000);
  assert.equal(config.truncation, "tail");
});

Deno.test("--help, -h and --version", async (t) => {
  await t.step("--help and -h print the help", () => {
    for (const flag of ["--help", "-h"]) {
      const result = resolve({ argv: [flag] });
      assert.equal(result.kind, "help");
      assert.ok(result.kind === "help" && result.text.startsWith("Usage: yieldshell"));
    }
  });
  await t.step("help wins over other flags, even unknown or invalid ones", () => {
    assert.equal(resolve({ argv: ["--port", "abc", "--bogus", "-h"] }).kind, "help");
    assert.equal(resolve({ argv: ["--version", "--help"] }).kind, "help");
    assert.equal(resolve({ env: { YIELDSHELL_PORT: "x" }, argv: ["--help"] }).kind, "help");
  });
  await t.step("--version prints the name and version", () => {
    assert.deepEqual(resolve({ argv: ["--version"] }), {
      kind: "version",
      text: "yieldshell 9.8.7",
    });
  });
  await t.step("--help takes no value", () => {
    assert.equal(errorOf({ argv: ["--help=yes"] }), 'Flag --help takes no value: received "yes"');
  });
});

Deno.test("command-line mistakes stop startup with a message naming the flag", async (t) => {
  const cases: [string[], string][] = [
    [["--port", "abc"], 'Invalid --port: received "abc"; expected an integer from 0 to 65535'],
    [["--port=65536"], 'Invalid --port: received "65536"; expected an integer from 0 to 65535'],
    [
      ["--max-output-bytes", "0"],
      'Invalid --max-output-bytes: received "0"; expected a positive integer',
    ],
    [["--yield-ms=-1"], 'Invalid --yield-ms: received "-1"; expected a non-negative integer'],
    [
      ["--timeout-ms", "1e3"],
      'Invalid --timeout-ms: received "1e3"; expected a non-negative integer',
    ],
    [
      ["--keepalive-interval-ms", "0"],
      'Invalid --keepalive-interval-ms: received "0"; expected a positive integer',
    ],
    [["--truncation", "both"], 'Invalid --truncation: received "both"; expected head or tail'],
    [
      ["--transport", "sse"],
      'Invalid --transport: received "sse"; expected stdio or http ("streamable-http" also means http)',
    ],
    [["--default-cwd="], 'Invalid --default-cwd: received ""; expected a non-empty path'],
    [["--host", ""], 'Invalid --host: received ""; expected a host name or IP address'],
    [["--frobnicate"], "Unknown flag --frobnicate; run yieldshell --help for the flags"],
    [["-x"], "Unknown flag -x; run yieldshell --help for the flags"],
    [
      ["--max-output-bytes=5", "--Port", "1"],
      "Unknown flag --Port; run yieldshell --help for the flags",
    ],
    [["serve"], 'Unexpected argument "serve"; yieldshell takes only flags (see --help)'],
    [["--", "--port"], 'Unexpected argument "--port"; yieldshell takes only flags (see --help)'],
    [["--port"], "Missing value for --port; expected an integer from 0 to 65535"],
    [["--config"], "Missing value for --config; expected the path of a config file"],
    [["--config="], 'Invalid --config: received ""; expected the path of a config file'],
    [["--version=2"], 'Flag --version takes no value: received "2"'],
  ];
  for (const [argv, message] of cases) {
    await t.step(argv.join(" "), () => {
      assert.equal(errorOf({ argv }), message);
    });
  }
  await t.step("a value that looks like a flag is refused with a way out", () => {
    assert.equal(
      errorOf({ argv: ["--port", "--host", "x"] }),
      'Missing value for --port; expected an integer from 0 to 65535, but the next argument "--host" looks like a flag (write --port=--host to pass a value that starts with "-")',
    );
    assert.equal(configOf({ argv: ["--deny-command-regex=-rf"] }).denyCommandRegex?.source, "-rf");
  });
  await t.step("an invalid regular expression names the flag", () => {
    const error = errorOf({ argv: ["--deny-command-regex", "a("] });
    assert.ok(error.startsWith("--deny-command-regex contains invalid regular expression 'a(': "));
  });
  await t.step("an invalid side effect names the flag and lists the valid names", () => {
    assert.match(
      errorOf({ argv: ["--blocked-side-effects", "NONE,nope"] }),
      /^Invalid --blocked-side-effects: received "nope"; expected a list of side-effect names \(case-sensitive\): CHANGES_NETWORK_CONFIGURATION, /,
    );
  });
  await t.step("an origin with a path is refused", () => {
    assert.match(
      errorOf({ argv: ["--allowed-origin", "https://a.example/app"] }),
      /^Invalid --allowed-origin: received "https:\/\/a.example\/app"; expected origins such as/,
    );
  });
});

Deno.test("a repeated single-value flag keeps its last value", () => {
  assert.equal(configOf({ argv: ["--port", "1", "--port", "2"] }).port, 2);
});

Deno.test("empty --shell and --auth-token mean none, overriding the environment", () => {
  const config = configOf({
    argv: ["--shell", "", "--auth-token="],
    env: { YIELDSHELL_SHELL: "/bin/bash", YIELDSHELL_AUTH_TOKEN: "0123456789abcdef" },
  });
  assert.equal(config.shell, null);
  assert.equal(config.authToken, null);
});

Deno.test("no arguments read as the parser reads none, without loading the parser", () => {
  assert.deepEqual(readCli([]), readCli([], { parseArgs }));
  assert.deepEqual(readCli([]), { kind: "settings", values: {}, configPath: undefined });
  assert.throws(() => readCli(["--port", "1"]), {
    message: "Cannot read the command line as its parser was not loaded",
  });
});
