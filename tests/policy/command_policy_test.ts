/**
 * Issue 13 at the unit level: the variable policy, the dialects of dash and bash, strict
 * option tables and the builtins a whitelist allows unlisted. The same cases run end to end in
 * tests/e2e/command_policy_test.ts.
 */
import assert from "node:assert/strict";
import { BashParser } from "../../src/policy/command_names/bash_parser.ts";
import {
  type CheckOptions,
  loadCommandNames,
  type NameLists,
} from "../../src/policy/command_names/mod.ts";

const parser = await BashParser.load();
const { checkCommandNames } = await loadCommandNames();
const BLACKLIST: NameLists = { blacklist: ["rm"], whitelist: [] };
const WHITELIST: NameLists = {
  blacklist: [],
  whitelist: ["ls", "git", "bash", "make", "env", "command"],
};
const DASH: CheckOptions = { dialect: "posix", shDialect: "posix" };
const BASH: CheckOptions = { dialect: "bash", shDialect: "posix" };

function reason(command: string, lists: NameLists, options: CheckOptions): string {
  const decision = checkCommandNames(command, lists, parser, options);
  assert.equal(decision.allow, false, `expected ${JSON.stringify(command)} to be refused`);
  return decision.allow ? "" : decision.reason;
}

function allowed(command: string, lists: NameLists, options: CheckOptions): void {
  assert.deepEqual(checkCommandNames(command, lists, parser, options), { allow: true }, command);
}

Deno.test("the variable policy: the env argument, assignments, declarations, operands, builtins", async (t) => {
  const refused: [string, Record<string, string>, string][] = [
    ["ls", { LD_PRELOAD: "/x.so" }, "LD_PRELOAD"],
    ["ls", { PATH: "/tmp/evil" }, "PATH"],
    ["ls", { "BASH_FUNC_ls%%": "() { rm x; }" }, "BASH_FUNC_ls%%"],
    ["git l", { GIT_CONFIG_PARAMETERS: "'alias.l=!rm x'" }, "GIT_CONFIG_PARAMETERS"],
    ["LD_PRELOAD=/x.so ls", {}, "LD_PRELOAD"],
    ["export 'LD_PRELOAD=/x.so'; ls", {}, "LD_PRELOAD"],
    ["command export PATH=/tmp/evil; ls", {}, "PATH"],
    ["env 'BASH_FUNC_ls%%=() { rm x; }' bash -c ls", {}, "BASH_FUNC_ls%%"],
    ["env -u PATH ls", {}, "PATH"],
    ["read PATH < f; ls", {}, "PATH"],
    ["for PATH in /tmp; do ls; done", {}, "PATH"],
    ["echo ${PATH:=/tmp}; ls", {}, "PATH"],
    ["make SHELL=/tmp/evil", {}, "SHELL"],
    ["NODE_OPTIONS='--require x' ls", {}, "NODE_OPTIONS"],
  ];
  for (const [command, env, name] of refused) {
    await t.step(`refuses ${name} in ${JSON.stringify(command)}`, () => {
      for (const lists of [BLACKLIST, WHITELIST]) {
        assert.match(
          reason(command, lists, { ...DASH, env }),
          new RegExp(`^Variable '${name}' is refused while a blacklist or whitelist is configured`),
        );
      }
    });
  }
  await t.step("command-line variables are read as scripts", () => {
    assert.equal(
      reason("ls", BLACKLIST, { ...DASH, env: { PAGER: "rm x" } }),
      "Command 'rm' is blocked by the blacklist",
    );
    assert.equal(
      reason("CC='rm x' make", BLACKLIST, DASH),
      "Command 'rm' is blocked by the blacklist",
    );
    assert.match(
      reason("read EDITOR; git commit", BLACKLIST, DASH),
      /EDITOR holds a command line and its value is set at run time/,
    );
  });
  await t.step("other variables and the word PATH in text pass", () => {
    allowed("ls", BLACKLIST, { ...DASH, env: { FOO: "1", CI: "true" } });
    allowed('echo "set your PATH"; echo $PATH', WHITELIST, DASH);
  });
});

Deno.test("dash and bash read the same text differently; the check follows the shell", async (t) => {
  const cases: [string, RegExp | null, RegExp | null][] = [
    // [command, refusal under dash (null: allowed), refusal under bash]
    ["[[ -n x ]] && ls", /a \[\[ test, which a POSIX shell/, null],
    ["((rm))", /'rm'/, /under bash, arithmetic on rm/],
    ["FOO+=1 ls", /a \+= assignment/, null],
    ["ls &>/dev/null rm x", /'rm'/, null],
    ["x='a[$(rm x)]'; echo $((x))", null, /under bash, arithmetic on x/],
    ["echo ${x@P}", null, /\$\{name@P\}/],
    [
      "declare -n r=PATH",
      /makes a name refer to any variable/,
      /makes a name refer to any variable/,
    ],
    ["for i in 1 2 3; do echo $((i * 2)); done", null, null],
    ["declare -A m; m[key]=1; echo ${m[key]}", null, null],
  ];
  for (const [command, dash, bash] of cases) {
    await t.step(JSON.stringify(command), () => {
      for (const [options, expected] of [[DASH, dash], [BASH, bash]] as const) {
        if (expected === null) allowed(command, BLACKLIST, options);
        else assert.match(reason(command, BLACKLIST, options), expected);
      }
    });
  }
});

Deno.test("wrappers read from their documented options; an unknown option is refused", async (t) => {
  const cases: [string, RegExp][] = [
    ["unshare -r --mount rm x", /'rm'/],
    [
      "unshare --frobnicate rm x",
      /unshare has an option the policy does not know \(--frobnicate\)/,
    ],
    ["nice -Q rm x", /nice has an option the policy does not know \(-Q\)/],
    ["setarch x86_64 -R rm x", /'rm'/],
    ["prlimit --nofile=1024 rm x", /'rm'/],
    ["ld.so --preload x.so ls", /ld\.so --preload makes the dynamic loader load code/],
    ["git clone -u 'rm x' repo", /'rm'/],
    ["git merge -s evil main", /merge strategy/],
    ["sg wheel 'rm x'", /'rm'/],
  ];
  for (const [command, expected] of cases) {
    await t.step(
      JSON.stringify(command),
      () => assert.match(reason(command, BLACKLIST, DASH), expected),
    );
  }
  for (
    const command of [
      "nice -5 ls",
      "timeout --preserve-status 5 ls",
      "setarch --list",
      "prlimit -p 1",
    ]
  ) {
    await t.step(`allows ${JSON.stringify(command)}`, () => allowed(command, BLACKLIST, DASH));
  }
});

Deno.test("a whitelist allows the builtins that cannot run programs without listing them", () => {
  for (
    const command of [
      "cd /tmp && ls",
      "export FOO=1; :",
      "true; false; echo hi; printf x",
      "test -f x && pwd",
    ]
  ) {
    allowed(command, WHITELIST, DASH);
  }
  for (
    const [command, name] of [["eval ls", "eval"], ["exec ls", "exec"], ["kill 1", "kill"], [
      "trap ls EXIT",
      "trap",
    ]]
  ) {
    const refusal = reason(command, WHITELIST, DASH);
    assert.ok(refusal.includes(`'${name}'`) || /eval runs/.test(refusal), refusal);
  }
});
