import assert from "node:assert/strict";
import { configOf, CWD, errorOf, warningsOf } from "./fixture.ts";

const PATH = "/etc/yieldshell/config.yaml";

function fromFile(text: string, path = PATH) {
  return configOf({ argv: ["--config", path], files: { [path]: text } });
}

function fileError(text: string, path = PATH): string {
  return errorOf({ argv: ["--config", path], files: { [path]: text } });
}

Deno.test("a YAML file fills settings", () => {
  const config = fromFile(`
default_cwd: /work
allowed_cwds: [/work, /tmp]
max_output_bytes: 1000
deny_command_regex: '\\brm\\s'
blocked_side_effects:
  - DELETES_FILES
transport: streamable-http
port: 0
blacklist: [" rm ", dd]
shell: ""
truncation: tail
non_interactive_env:
  CI: "1"
`);
  assert.equal(config.defaultCwd, "/work");
  assert.deepEqual(config.allowedCwds, ["/work", "/tmp"]);
  assert.equal(config.maxOutputBytes, 1000);
  assert.equal(config.denyCommandRegex?.test("rm -rf x"), true);
  assert.deepEqual(config.blockedSideEffects, ["DELETES_FILES"]);
  assert.equal(config.transport, "http");
  assert.equal(config.port, 0);
  assert.deepEqual(config.blacklist, ["rm", "dd"]);
  assert.equal(config.shell, null);
  assert.equal(config.truncation, "tail");
  // The map replaces the default overlay instead of merging with it.
  assert.deepEqual(config.nonInteractiveEnv, { CI: "1" });
});

Deno.test("a JSON file fills settings", () => {
  const config = fromFile(
    JSON.stringify({
      max_processes: 5,
      whitelist: ["git"],
      auth_token: "tok-of-16-chars!",
      host: "::1",
      allowed_origins: ["https://x.example"],
      non_interactive_env: {},
    }),
    "/c/config.json",
  );
  assert.equal(config.maxProcesses, 5);
  assert.deepEqual(config.whitelist, ["git"]);
  assert.equal(config.authToken, "tok-of-16-chars!");
  assert.equal(config.host, "::1");
  assert.deepEqual(config.allowedOrigins, ["https://x.example"]);
  assert.deepEqual(config.nonInteractiveEnv, {});
});

Deno.test("an empty or comment-only file changes nothing", () => {
  const defaults = configOf();
  assert.deepEqual(fromFile(""), defaults);
  assert.deepEqual(fromFile("# nothing yet\n"), defaults);
  assert.equal(defaults.defaultCwd, CWD);
});

Deno.test("YIELDSHELL_CONFIG names the file; --config wins over it", () => {
  const files = { "/env.yaml": "port: 1\n", "/cli.yaml": "port: 2\n" };
  assert.equal(configOf({ env: { YIELDSHELL_CONFIG: "/env.yaml" }, files }).port, 1);
  const both = configOf({
    env: { YIELDSHELL_CONFIG: "/env.yaml" },
    argv: ["--config", "/cli.yaml"],
    files,
  });
  assert.equal(both.port, 2);
  assert.equal(configOf({ env: { YIELDSHELL_CONFIG: "" } }).port, 8000);
});

Deno.test("config file mistakes stop startup naming the file and the key", async (t) => {
  await t.step("an unknown key, with the nearest valid key and the valid keys", () => {
    const error = fileError("port: 1\nmax_output_byte: 5\n");
    assert.ok(
      error.startsWith(
        `Unknown key "max_output_byte" in config file ${PATH} (nearest valid key: max_output_bytes); valid keys: `,
      ),
      error,
    );
    for (const key of ["allowed_cwds", "max_output_bytes", "non_interactive_env", "truncation"]) {
      assert.ok(error.includes(key), key);
    }
  });
  await t.step("every unknown key at once, each with its nearest valid key", () => {
    const error = fileError(
      [
        "prot: 1",
        "port: 2",
        "maxOutputBytes: 5",
        "YIELDSHELL_DEFAULT_TIMEOUT_MS: 10",
        "yield-ms: 5",
        "allowed-cwd: [/w]",
        "zzz: 1",
      ].join("\n"),
    );
    const named = [
      '"prot" (nearest valid key: port)',
      '"maxOutputBytes" (nearest valid key: max_output_bytes)',
      '"YIELDSHELL_DEFAULT_TIMEOUT_MS" (nearest valid key: default_timeout_ms)',
      '"yield-ms" (nearest valid key: default_yield_ms)',
      '"allowed-cwd" (nearest valid key: allowed_cwds)',
      '"zzz" (nearest valid key: ',
    ];
    assert.ok(
      error.startsWith(`Unknown keys in config file ${PATH}: ${named.join(", ")}`),
      error,
    );
    assert.match(error, /; valid keys: allow_command_regex, (\w+, )*allowed_cwds, /);
  });
  await t.step("Deno's deno.json named as the config file says what happened", () => {
    const error = fileError('{"name": "x", "tasks": {}, "imports": {}}', "/checkout/deno.json");
    assert.match(
      error,
      /^Unknown keys in config file \/checkout\/deno.json: "name" \(nearest valid key: \w+\), "tasks" \(nearest valid key: \w+\), "imports" \(nearest valid key: \w+\); valid keys: .*; this is Deno's configuration: Deno finds deno.json beside main.ts by itself, and a --config after main.ts names a yieldshell config file$/,
    );
  });
  const cases: [string, string][] = [
    [
      'port: "8000"',
      `Invalid port in config file ${PATH}: received "8000"; expected an integer from 0 to 65535`,
    ],
    [
      "max_output_bytes: 0",
      `Invalid max_output_bytes in config file ${PATH}: received 0; expected a positive integer`,
    ],
    [
      "default_yield_ms: 1.5",
      `Invalid default_yield_ms in config file ${PATH}: received 1.5; expected a non-negative integer`,
    ],
    [
      "max_processes: null",
      `Invalid max_processes in config file ${PATH}: received null; expected a positive integer`,
    ],
    [
      "blacklist: rm",
      `Invalid blacklist in config file ${PATH}: received "rm"; expected a list of non-empty command names`,
    ],
    [
      'blacklist: [rm, ""]',
      `Invalid blacklist[1] in config file ${PATH}: received ""; expected a list of non-empty command names`,
    ],
    [
      "allowed_cwds: /work",
      `Invalid allowed_cwds in config file ${PATH}: received "/work"; expected a list of non-empty paths`,
    ],
    [
      "non_interactive_env:\n  CI: true",
      `Invalid non_interactive_env.CI in config file ${PATH}: received true; expected a map of variable names to string values (quote numbers and booleans: "0")`,
    ],
    [
      "non_interactive_env:\n  GIT_TERMINAL_PROMPT: 0",
      `Invalid non_interactive_env.GIT_TERMINAL_PROMPT in config file ${PATH}: received 0; expected a map of variable names to string values (quote numbers and booleans: "0")`,
    ],
    [
      "non_interactive_env: [CI]",
      `Invalid non_interactive_env in config file ${PATH}: received ["CI"]; expected a map of variable names to string values (quote numbers and booleans: "0")`,
    ],
    [
      "transport: sse",
      `Invalid transport in config file ${PATH}: received "sse"; expected stdio or http ("streamable-http" also means http)`,
    ],
    [
      "truncation: HEAD",
      `Invalid truncation in config file ${PATH}: received "HEAD"; expected head or tail`,
    ],
    [
      "deny_command_regex: 5",
      `Invalid deny_command_regex in config file ${PATH}: received 5; expected a regular expression, or an empty value to turn it off`,
    ],
    [
      "- port: 1",
      `Config file ${PATH} must hold a mapping of settings (key: value); received [{"port":1}]`,
    ],
    [
      "just text",
      `Config file ${PATH} must hold a mapping of settings (key: value); received "just text"`,
    ],
  ];
  for (const [text, message] of cases) {
    await t.step(text, () => assert.equal(fileError(text), message));
  }
  await t.step("an invalid side effect names the key and entry", () => {
    assert.match(
      fileError("blocked_side_effects: [NONE, INSTALLS_DEPENDENCIES]"),
      /^Invalid blocked_side_effects\[1\] in config file \/etc\/yieldshell\/config.yaml: received "INSTALLS_DEPENDENCIES"; expected a list of side-effect names \(case-sensitive\): /,
    );
  });
  await t.step("an invalid regular expression names the key and the file", () => {
    const error = fileError("allow_command_regex: 'x('");
    assert.ok(
      error.startsWith(
        `allow_command_regex in config file ${PATH} contains invalid regular expression 'x(': `,
      ),
      error,
    );
  });
  await t.step("a YAML syntax error", () => {
    assert.match(
      fileError("port: [1\n"),
      /^Cannot parse config file \/etc\/yieldshell\/config.yaml: .+ at line \d+, column \d+$/,
    );
  });
  await t.step("a duplicated key", () => {
    assert.match(
      fileError("port: 1\nport: 2\n"),
      /^Cannot parse config file .*: Map keys must be unique/,
    );
  });
  await t.step("a missing file that was named", () => {
    assert.equal(
      errorOf({ argv: ["--config", "/nope.yaml"] }),
      "Cannot read config file /nope.yaml: No such file or directory (os error 2): readfile '/nope.yaml'",
    );
    assert.match(
      errorOf({ env: { YIELDSHELL_CONFIG: "/nope.yaml" } }),
      /^Cannot read config file \/nope.yaml: /,
    );
  });
  await t.step("a bad file value is an error even when a flag overrides it", () => {
    const error = errorOf({
      argv: ["--config", PATH, "--port", "1"],
      files: { [PATH]: "port: high\n" },
    });
    assert.match(error, /^Invalid port in config file/);
  });
});

Deno.test("the YAML parser's warnings become startup warnings", () => {
  const warnings = warningsOf({
    argv: ["--config", PATH],
    files: { [PATH]: "%FOO bar\n---\nport: 1\n" },
  });
  assert.equal(warnings.length, 1);
  assert.ok(warnings[0].startsWith(`Config file ${PATH}: `), warnings[0]);
});
