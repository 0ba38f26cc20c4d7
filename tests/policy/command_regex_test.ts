import assert from "node:assert/strict";
import {
  checkCommandRegex,
  checkShellRegex,
  compilePattern,
} from "../../src/policy/command_regex.ts";
import type { Decision } from "../../src/policy/decision.ts";

Deno.test("compilePattern follows Python re semantics", async (t) => {
  // [pattern, text, does Python's re.search find a match]
  const cases: [string, string, boolean][] = [
    ["rm -rf", "sudo rm -rf /", true],
    ["(?P<verb>rm)\\s+(?P=verb)", "rm  rm", true],
    ["(?P<verb>rm)\\s+(?P=verb)", "rm ls", false],
    ["^rm$", "rm", true],
    ["^rm$", "rm\n", true],
    ["^rm$", "rm\n\n", false],
    ["^rm$", "xrm", false],
    ["^rm\\Z", "rm", true],
    ["^rm\\Z", "rm\n", false],
    ["\\Arm", "rm -rf", true],
    ["\\Arm", "x\nrm", false],
    ["(?m)\\Arm", "x\nrm", false],
    ["(?m)^rm", "x\nrm", true],
    ["^rm", "x\nrm", false],
    ["(?m)foo$", "foo\nbar", true],
    ["foo$", "foo\nbar", false],
    ["(?m)foo$", "foo\rbar", false],
    ["(?i)RM", "rm", true],
    ["RM", "rm", false],
    ["(?im)^RM", "x\nrm", true],
    ["(?i)(?m)^RM", "x\nrm", true],
    ["a.b", "a\rb", true],
    ["a.b", "a\u2028b", true],
    ["a.b", "a\nb", false],
    ["(?s)a.b", "a\nb", true],
    ["(?s:a.)b.", "a\nb\n", false],
    ["(?s:a.)b.", "a\nbc", true],
    ["[]x]", "]", true],
    ["[]x]", "x", true],
    ["[^]x]", "]", false],
    ["[^]x]", "a", true],
    ["[.]", "a", false],
    ["[$]", "$", true],
    ["^a{,2}$", "aa", true],
    ["^a{,2}$", "aaa", false],
    ["^a{,}$", "aaaa", true],
    ["a{2}", "aa", true],
    ["(?i:rm)\\s+-RF", "RM -RF", true],
    ["(?i:rm)\\s+-RF", "RM -rf", false],
    ["(?i)(?-i:rm)x", "rmX", true],
    ["(?i)(?-i:rm)x", "RMx", false],
    ["(?#a comment)rm", "rm", true],
    ["\\x41", "A", true],
    ["\\u0041", "A", true],
    ["\\U0001F600", "😀", true],
    ["[\\U00000041]", "A", true],
    ["\\a", "\x07", true],
    ["\\a", "a", false],
    ["(?<=sudo )rm", "sudo rm", true],
    ["(?<!sudo )rm", "sudo rm", false],
    ["(?<verb>rm)", "rm", true],
    ["\\brm\\b", "x rm -f", true],
    ["\\brm\\b", "term", false],
    ["(a)\\1", "aa", true],
    ["\\d+\\.\\d+", "v1.2", true],
    ["\\-\\/\\_", "-/_", true],
    ["(?u)rm", "rm", true],
    ["", "anything", true],
  ];
  for (const [pattern, text, expected] of cases) {
    await t.step(`${JSON.stringify(pattern)} on ${JSON.stringify(text)}`, () => {
      assert.equal(text.search(compilePattern(pattern)) !== -1, expected);
    });
  }
});

Deno.test("compilePattern rejects invalid and unsupported patterns", async (t) => {
  const cases: [string, string][] = [
    ["(", "Unterminated group"],
    ["*", "Nothing to repeat"],
    ["a)", "Unmatched ')'"],
    ["(?P<n>a)(?P=m)", "Invalid named capture referenced"],
    ["[a", "Unterminated character set at position 0"],
    ["a\\q", "Bad escape \\q at position 1"],
    ["a\\k<x>", "Bad escape \\k at position 1"],
    ["[\\Z]", "Bad escape \\Z at position 1"],
    ["a\\", "Bad escape (end of pattern) at position 1"],
    ["\\x4", "Incomplete escape \\x4 at position 0"],
    ["\\u12", "Incomplete escape \\u12 at position 0"],
    ["\\U0011000000", "Bad escape \\U00110000 at position 0"],
    [
      "[\\U0001F600]",
      "Characters outside the Basic Multilingual Plane are not supported in a set at position 1",
    ],
    ["\\N{EM DASH}", "Named Unicode escapes (\\N{...}) are not supported at position 0"],
    [
      "(?x)rm  -rf",
      "Inline flag (?x) (verbose) is not supported at position 0; remove the flag and write the pattern without insignificant whitespace or comments",
    ],
    [
      "(?x:a b)",
      "Inline flag (?x) (verbose) is not supported at position 0; remove the flag and write the pattern without insignificant whitespace or comments",
    ],
    ["(?L)a", "Inline flag (?L) is only valid for bytes patterns at position 0"],
    ["a(?i)b", "Global flags not at the start of the expression at position 1"],
    ["(?-i:a)(?i-i:b)", "Bad inline flags: flag turned on and off at position 7"],
    ["(?-u:a)", "Bad inline flags: only i, m, s and x can be turned off at position 0"],
    ["(?-:a)", "Missing flag at position 0"],
    ["(?q:a)", "Unknown inline flag q at position 0"],
    ["(?(1)a|b)", "Conditional groups (?(...)) are not supported at position 0"],
    ["(?>a)", "Atomic groups (?>...) are not supported at position 0"],
    ["(?Px)", "Unknown extension ?P at position 0"],
    ["(?#open", "Missing ), unterminated comment at position 0"],
  ];
  for (const [pattern, reason] of cases) {
    await t.step(JSON.stringify(pattern), () => {
      assert.throws(() => compilePattern(pattern), { message: reason });
    });
  }

  await t.step("the reason fits the startup error", () => {
    const variable = "YIELDSHELL_DENY_COMMAND_REGEX";
    const value = "(";
    let message = "";
    try {
      compilePattern(value);
    } catch (error) {
      message = `${variable} contains invalid regular expression '${value}': ${
        (error as Error).message
      }`;
    }
    assert.equal(
      message,
      "YIELDSHELL_DENY_COMMAND_REGEX contains invalid regular expression '(': Unterminated group",
    );
  });
});

Deno.test("checkCommandRegex", async (t) => {
  const deny = compilePattern("rm\\s+-rf");
  const allow = compilePattern("^(echo|ls)\\b");
  const cases: {
    name: string;
    command: string;
    rules: { deny: RegExp | null; allow: RegExp | null };
    want: Decision;
  }[] = [
    {
      name: "no rules",
      command: "rm -rf /",
      rules: { deny: null, allow: null },
      want: { allow: true },
    },
    {
      name: "deny matches anywhere",
      command: "echo hi; rm  -rf /",
      rules: { deny, allow: null },
      want: { allow: false, reason: "Command denied by policy" },
    },
    {
      name: "deny does not match",
      command: "rm -r x",
      rules: { deny, allow: null },
      want: { allow: true },
    },
    {
      name: "allow matches",
      command: "ls -la",
      rules: { deny: null, allow },
      want: { allow: true },
    },
    {
      name: "allow does not match",
      command: "cat x",
      rules: { deny: null, allow },
      want: { allow: false, reason: "Command not allowed by policy" },
    },
    {
      name: "deny is checked first",
      command: "echo x && rm -rf /",
      rules: { deny, allow },
      want: { allow: false, reason: "Command denied by policy" },
    },
    {
      name: "the empty command is checked too",
      command: "",
      rules: { deny: null, allow },
      want: { allow: false, reason: "Command not allowed by policy" },
    },
    {
      name: "a trailing newline does not dodge an anchored deny",
      command: "reboot\n",
      rules: { deny: compilePattern("^reboot$"), allow: null },
      want: { allow: false, reason: "Command denied by policy" },
    },
    {
      name: "a carriage return does not dodge a dot",
      command: "rm\r-rf",
      rules: { deny: compilePattern("rm.-rf"), allow: null },
      want: { allow: false, reason: "Command denied by policy" },
    },
  ];
  for (const { name, command, rules, want } of cases) {
    await t.step(name, () => assert.deepEqual(checkCommandRegex(command, rules), want));
  }

  await t.step("a global regex gives the same answer every time", () => {
    const rules = { deny: /rm/g, allow: null };
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(checkCommandRegex("rm x", rules), {
        allow: false,
        reason: "Command denied by policy",
      });
    }
  });
});

Deno.test("checkShellRegex", async (t) => {
  const cases: {
    shell: string;
    rules: { deny: RegExp | null; allow: RegExp | null };
    want: Decision;
  }[] = [
    {
      shell: "",
      rules: { deny: null, allow: null },
      want: { allow: false, reason: "Shell executable must not be empty" },
    },
    {
      shell: " \t\n",
      rules: { deny: null, allow: null },
      want: { allow: false, reason: "Shell executable must not be empty" },
    },
    { shell: "/bin/bash", rules: { deny: null, allow: null }, want: { allow: true } },
    {
      shell: "/bin/bash",
      rules: { deny: compilePattern("bash"), allow: null },
      want: { allow: false, reason: "Shell rejected by policy: Command denied by policy" },
    },
    {
      shell: "/bin/bash",
      rules: { deny: null, allow: compilePattern("^echo\\s") },
      want: { allow: false, reason: "Shell rejected by policy: Command not allowed by policy" },
    },
    {
      shell: "/bin/sh",
      rules: { deny: compilePattern("bash"), allow: compilePattern("sh") },
      want: { allow: true },
    },
  ];
  for (const { shell, rules, want } of cases) {
    await t.step(
      JSON.stringify(shell),
      () => assert.deepEqual(checkShellRegex(shell, rules), want),
    );
  }
});
