import assert from "node:assert/strict";
import type { Config } from "../../src/config/mod.ts";
import { configOf, CWD } from "./fixture.ts";

const FILE = "/etc/yieldshell.yaml";

interface Layered<K extends keyof Config> {
  key: K;
  fileLine: string;
  env: [string, string];
  argv: string[];
  expected: { default: Config[K]; file: Config[K]; env: Config[K]; cli: Config[K] };
}

function layered<K extends keyof Config>(entry: Layered<K>): Layered<K> {
  return entry;
}

const CASES = [
  layered({
    key: "maxOutputBytes",
    fileLine: "max_output_bytes: 111",
    env: ["YIELDSHELL_MAX_OUTPUT_BYTES", "222"],
    argv: ["--max-output-bytes", "333"],
    expected: { default: 20_000, file: 111, env: 222, cli: 333 },
  }),
  layered({
    key: "transport",
    fileLine: "transport: http",
    env: ["YIELDSHELL_TRANSPORT", "stdio"],
    argv: ["--transport", "streamable-http"],
    expected: { default: "stdio", file: "http", env: "stdio", cli: "http" },
  }),
  layered({
    key: "blacklist",
    fileLine: "blacklist: [rm]",
    env: ["YIELDSHELL_BLACKLIST", "dd, mkfs"],
    argv: ["--blacklist", "shutdown"],
    expected: { default: [], file: ["rm"], env: ["dd", "mkfs"], cli: ["shutdown"] },
  }),
  layered({
    key: "allowedCwds",
    fileLine: "allowed_cwds: [/file]",
    env: ["YIELDSHELL_ALLOWED_CWDS", "/env/a:/env/b"],
    argv: ["--allowed-cwd", "/cli"],
    expected: { default: [], file: ["/file"], env: ["/env/a", "/env/b"], cli: ["/cli"] },
  }),
  layered({
    key: "defaultCwd",
    fileLine: "default_cwd: /file",
    env: ["YIELDSHELL_DEFAULT_CWD", "/env"],
    argv: ["--default-cwd", "/cli"],
    expected: { default: CWD, file: "/file", env: "/env", cli: "/cli" },
  }),
  layered({
    key: "port",
    fileLine: "port: 1",
    env: ["YIELDSHELL_PORT", "2"],
    argv: ["--port=3"],
    expected: { default: 8000, file: 1, env: 2, cli: 3 },
  }),
  layered({
    key: "blockedSideEffects",
    fileLine: "blocked_side_effects: [DELETES_FILES]",
    env: ["MCP_YIELDSHELL_BLOCKED_SIDE_EFFECTS", ","],
    argv: ["--blocked-side-effects", "NONE,OTHER"],
    expected: {
      default: [
        "KILLS_AGENT_PROCESS",
        "MODIFIES_OS_SETTINGS",
        "MODIFIES_OS_USER_SETTINGS",
        "MODIFIES_PROTECTED_FILES",
        "RUNS_INLINE_CODE",
      ],
      file: ["DELETES_FILES"],
      env: [],
      cli: ["NONE", "OTHER"],
    },
  }),
  layered({
    key: "shell",
    fileLine: "shell: /bin/zsh",
    env: ["YIELDSHELL_SHELL", "/bin/bash"],
    argv: ["--shell", ""],
    expected: { default: null, file: "/bin/zsh", env: "/bin/bash", cli: null },
  }),
];

const LAYERS = ["file", "env", "cli"] as const;

Deno.test("a flag beats a variable, a variable beats the file, the file beats the default", async (t) => {
  for (const entry of CASES) {
    // Every subset of the three sources: all orders, pairwise and more.
    for (let mask = 0; mask < 8; mask++) {
      const present = LAYERS.filter((_, index) => (mask & (1 << index)) !== 0);
      const winner = present.at(-1) ?? "default";
      await t.step(`${entry.key} from [${present.join(", ")}] is the ${winner} value`, () => {
        const config = configOf({
          argv: [
            ...(present.includes("file") ? ["--config", FILE] : []),
            ...(present.includes("cli") ? entry.argv : []),
          ],
          env: present.includes("env") ? { [entry.env[0]]: entry.env[1] } : {},
          files: { [FILE]: `${entry.fileLine}\n` },
        });
        assert.deepEqual(config[entry.key], entry.expected[winner]);
      });
    }
  }
});

Deno.test("regular expressions follow the same precedence", () => {
  const files = { [FILE]: "deny_command_regex: from_file\n" };
  const env = { YIELDSHELL_CONFIG: FILE, YIELDSHELL_DENY_COMMAND_REGEX: "from_env" };
  assert.equal(
    configOf({ files, env: { YIELDSHELL_CONFIG: FILE } }).denyCommandRegex?.source,
    "from_file",
  );
  assert.equal(configOf({ files, env }).denyCommandRegex?.source, "from_env");
  const cli = configOf({ files, env, argv: ["--deny-command-regex", "from_cli"] });
  assert.equal(cli.denyCommandRegex?.source, "from_cli");
  const cleared = configOf({ files, env, argv: ["--deny-command-regex="] });
  assert.equal(cleared.denyCommandRegex, null);
});

Deno.test("an empty variable counts as unset, so the file value stays", () => {
  const files = { [FILE]: "max_output_bytes: 111\nblacklist: [rm]\nhost: ::1\n" };
  const config = configOf({
    argv: ["--config", FILE],
    files,
    env: { YIELDSHELL_MAX_OUTPUT_BYTES: "", YIELDSHELL_BLACKLIST: "", YIELDSHELL_HOST: "" },
  });
  assert.equal(config.maxOutputBytes, 111);
  assert.deepEqual(config.blacklist, ["rm"]);
  assert.equal(config.host, "::1");
});

Deno.test("an empty flag clears a list from the file or the environment", () => {
  const config = configOf({
    argv: ["--config", FILE, "--blacklist", "", "--allowed-cwd", ""],
    files: { [FILE]: "blacklist: [rm]\n" },
    env: { YIELDSHELL_ALLOWED_CWDS: "/a" },
  });
  assert.deepEqual(config.blacklist, []);
  assert.deepEqual(config.allowedCwds, []);
});
