import assert from "node:assert/strict";
import {
  collectSecrets,
  mergeSecrets,
  redactText,
  type Secret,
  StreamingRedactor,
} from "../../src/policy/redaction.ts";

const SECRETS: Secret[] = collectSecrets({
  MY_SECRET: "secretvalue123",
  EVIL: "[REDACTED:TOKEN]",
  SHORT_SECRET: "1234567",
  API_TOKEN: "abcdefgh",
  API_TOKEN_LONG: "abcdefghijkl",
  UNICODE_SECRET: "pässwörd😀",
  PATH: "/usr/local/bin:/usr/bin",
}, /SECRET|TOKEN|EVIL/);

/** Streams `chunks` through a fresh redactor, flushing at the end. */
function stream(secrets: readonly Secret[], chunks: readonly string[]): string {
  const redactor = new StreamingRedactor(secrets);
  return chunks.map((chunk) => redactor.push(chunk)).join("") + redactor.flush();
}

Deno.test("collectSecrets", async (t) => {
  await t.step("selects by name search and value length, sorted", () => {
    assert.deepEqual(SECRETS, [
      { name: "EVIL", value: "[REDACTED:TOKEN]" },
      { name: "MY_SECRET", value: "secretvalue123" },
      { name: "API_TOKEN_LONG", value: "abcdefghijkl" },
      { name: "UNICODE_SECRET", value: "pässwörd😀" },
      { name: "API_TOKEN", value: "abcdefgh" },
    ]);
  });

  const cases: { name: string; env: Record<string, string>; pattern: RegExp; want: Secret[] }[] = [
    {
      name: "length counts code points, not UTF-16 units",
      env: { A_KEY: "😀😀😀😀", B_KEY: "😀😀😀😀😀😀😀😀", C_KEY: "1234567", D_KEY: "12345678" },
      pattern: /KEY/,
      want: [
        { name: "B_KEY", value: "😀😀😀😀😀😀😀😀" },
        { name: "D_KEY", value: "12345678" },
      ],
    },
    {
      name: "ties break by name, then value",
      env: { B: "zzzzzzzz", A: "yyyyyyyy", C: "xxxxxxxx" },
      pattern: /./,
      want: [
        { name: "A", value: "yyyyyyyy" },
        { name: "B", value: "zzzzzzzz" },
        { name: "C", value: "xxxxxxxx" },
      ],
    },
    {
      name: "names compare by code point",
      env: { "\u{1F600}": "aaaaaaaa", "\uFF21": "aaaaaaaa" },
      pattern: /./u,
      want: [
        { name: "\uFF21", value: "aaaaaaaa" },
        { name: "\u{1F600}", value: "aaaaaaaa" },
      ],
    },
    {
      name: "the pattern searches anywhere in the name and is case-sensitive",
      env: { MY_TOKEN_X: "value-one-1", my_token: "value-two-2" },
      pattern: /TOKEN/,
      want: [{ name: "MY_TOKEN_X", value: "value-one-1" }],
    },
    {
      name: "a global pattern is not stateful",
      env: { TOKEN_A: "aaaaaaaa", TOKEN_B: "bbbbbbbb" },
      pattern: /TOKEN/g,
      want: [{ name: "TOKEN_A", value: "aaaaaaaa" }, { name: "TOKEN_B", value: "bbbbbbbb" }],
    },
  ];
  for (const { name, env, pattern, want } of cases) {
    await t.step(name, () => assert.deepEqual(collectSecrets(env, pattern), want));
  }
});

Deno.test("mergeSecrets adds overlay secrets, deduplicated as pairs", () => {
  const base = collectSecrets({ API_TOKEN: "abcdefgh", OTHER_TOKEN: "zzzzzzzzzz" }, /TOKEN/);
  const merged = mergeSecrets(base, {
    API_TOKEN: "abcdefgh",
    NEW_TOKEN: "new-token-value",
    OTHER_TOKEN: "overridden",
    SHORT_TOKEN: "short",
    UNRELATED: "unrelated-value",
  }, /TOKEN/);
  assert.deepEqual(merged, [
    { name: "NEW_TOKEN", value: "new-token-value" },
    { name: "OTHER_TOKEN", value: "overridden" },
    { name: "OTHER_TOKEN", value: "zzzzzzzzzz" },
    { name: "API_TOKEN", value: "abcdefgh" },
  ]);
  assert.equal(base.length, 2);
});

Deno.test("redactText", async (t) => {
  const cases: [string, string, string][] = [
    ["plain secret", "key=secretvalue123;", "key=[REDACTED:MY_SECRET];"],
    [
      "existing markers survive",
      "[REDACTED:OTHER] [REDACTED:abc]",
      "[REDACTED:OTHER] [REDACTED:abc]",
    ],
    ["marker holding a secret is hardened", "[REDACTED:secretvalue123]", "[REDACTED:MY_SECRET]"],
    [
      "marker holding two secrets names the longest",
      "[REDACTED:abcdefgh secretvalue123]",
      "[REDACTED:MY_SECRET]",
    ],
    ["secret shaped like a marker", "x [REDACTED:TOKEN] y", "x [REDACTED:EVIL] y"],
    ["fragments are not redacted", "secretvalue12 abcdefg", "secretvalue12 abcdefg"],
    [
      "placeholder-looking text is not corrupted",
      "\u0000STASH_0\u0000 __MARKER_0__ {0}",
      "\u0000STASH_0\u0000 __MARKER_0__ {0}",
    ],
    ["a page cut inside a marker", "[REDACTE", "[REDACTE"],
    ["a page cut inside a marker, other end", "D:API_TOKEN] tail", "D:API_TOKEN] tail"],
    [
      "longest secret first",
      "abcdefghijkl abcdefghijk",
      "[REDACTED:API_TOKEN_LONG] [REDACTED:API_TOKEN]ijk",
    ],
    ["unicode secret", "pw=pässwörd😀!", "pw=[REDACTED:UNICODE_SECRET]!"],
    ["regex metacharacters are literal", "[REDACTED:TOKEN", "[REDACTED:TOKEN"],
    ["adjacent secrets", "abcdefghsecretvalue123", "[REDACTED:API_TOKEN][REDACTED:MY_SECRET]"],
    ["empty text", "", ""],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => assert.equal(redactText(text, SECRETS), expected));
  }

  await t.step("two names sharing a value: the first in sort order names the marker", () => {
    const secrets = collectSecrets({ Z_TOKEN: "shared-value", A_TOKEN: "shared-value" }, /TOKEN/);
    assert.equal(redactText("v=shared-value", secrets), "v=[REDACTED:A_TOKEN]");
  });

  await t.step("overlapping secrets: leftmost wins, then longest", () => {
    const secrets = collectSecrets({ C_KEY: "12345678", D_KEY: "5678abcd" }, /KEY/);
    assert.equal(redactText("12345678abcd", secrets), "[REDACTED:C_KEY]abcd");
    assert.equal(redactText("x5678abcd", secrets), "x[REDACTED:D_KEY]");
  });

  await t.step("no secrets returns the text", () => {
    const text = "[REDACTED:x] anything";
    assert.equal(redactText(text, []), text);
  });

  await t.step("redacting twice changes nothing more", () => {
    const once = redactText("secretvalue123 [REDACTED:secretvalue123]", SECRETS);
    assert.equal(redactText(once, SECRETS), once);
  });
});

const STREAM_TEXTS = [
  "a secretvalue123 b [REDACTED:TOKEN] c [REDACTED:xx] [REDACTED:secretvalue123] end",
  "abcdefghijkl abcdefghijk abcdefghX abcdefgh",
  "pw=pässwörd😀 and [REDACTED:pässwörd😀] [REDACT",
  "[REDACTED:abc\nsecretvalue123] [REDACTED:] [[REDACTED:a]",
  "trailing secret secretvalue123",
  "partial secretvalue12",
  "",
];

Deno.test("StreamingRedactor", async (t) => {
  await t.step("no secrets: pass-through with no buffering", () => {
    const redactor = new StreamingRedactor([]);
    for (const chunk of ["[REDACT", "ED:x", "abc", ""]) assert.equal(redactor.push(chunk), chunk);
    assert.equal(redactor.flush(), "");
  });

  for (const text of STREAM_TEXTS) {
    await t.step(`every split of ${JSON.stringify(text)} matches one-shot`, () => {
      const expected = redactText(text, SECRETS);
      for (let i = 0; i <= text.length; i++) {
        assert.equal(stream(SECRETS, [text.slice(0, i), text.slice(i)]), expected, `split ${i}`);
      }
      assert.equal(stream(SECRETS, [...text]), expected, "one code point per chunk");
      assert.equal(stream(SECRETS, text.split("")), expected, "one code unit per chunk");
    });
  }

  await t.step("every pair of splits matches one-shot", () => {
    const text = "x secretvalue123 [REDACTED:abcdefgh] abcdefghijk";
    const expected = redactText(text, SECRETS);
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j++) {
        const chunks = [text.slice(0, i), text.slice(i, j), text.slice(j)];
        assert.equal(stream(SECRETS, chunks), expected, `splits ${i}, ${j}`);
      }
    }
  });

  await t.step("a match is never cut by a hold for another secret", () => {
    // "fghZZ" could begin F_KEY, but "abcdefgh" is already a complete match of A_KEY.
    const secrets = collectSecrets({ A_KEY: "abcdefgh", F_KEY: "fghZZZZZ" }, /KEY/);
    for (const text of ["abcdefghZZ end", "abcdefghZZZZZ", "xxfghZZZZZ"]) {
      const expected = redactText(text, secrets);
      for (let i = 0; i <= text.length; i++) {
        assert.equal(stream(secrets, [text.slice(0, i), text.slice(i)]), expected);
      }
    }
  });

  await t.step("a marker that overlaps a secret's start stays one marker", () => {
    const secrets = collectSecrets({ M_KEY: "cd]xxxxxx" }, /KEY/);
    const text = "[REDACTED:abcd]xxxxxx";
    assert.equal(redactText(text, secrets), text);
    for (let i = 0; i <= text.length; i++) {
      assert.equal(stream(secrets, [text.slice(0, i), text.slice(i)]), text);
    }
  });

  await t.step("holds what could begin a secret until more output or flush", () => {
    const redactor = new StreamingRedactor(SECRETS);
    assert.equal(redactor.push("token: abcd"), "token: ");
    assert.equal(redactor.push("XYZ "), "abcdXYZ ");
    assert.equal(redactor.push("secretvalue"), "");
    assert.equal(redactor.push("123"), "[REDACTED:MY_SECRET]");
    assert.equal(redactor.push("abcdefgh"), "");
    assert.equal(redactor.push("i"), "");
    assert.equal(redactor.push("!"), "[REDACTED:API_TOKEN]i!");
    assert.equal(redactor.push("secretval"), "");
    assert.equal(redactor.flush(), "secretval");
    assert.equal(redactor.flush(), "");
  });

  await t.step("holds a proper prefix of the marker opener", () => {
    const redactor = new StreamingRedactor(SECRETS);
    assert.equal(redactor.push("a [RED"), "a ");
    assert.equal(redactor.push("ACTED:"), "");
    assert.equal(redactor.push("secretvalue123 more"), "");
    assert.equal(redactor.push("] done"), "[REDACTED:MY_SECRET] done");
  });

  await t.step("releases a terminated or too-long marker", () => {
    const redactor = new StreamingRedactor(SECRETS);
    assert.equal(redactor.push("[REDACTED:note] x"), "[REDACTED:note] x");
    const long = `[REDACTED:${"n".repeat(1014)}`;
    assert.equal(long.length, 1024);
    assert.equal(redactor.push(long), "");
    assert.equal(redactor.push("n"), `${long}n`);
  });

  await t.step("marker length counts code points", () => {
    const redactor = new StreamingRedactor(SECRETS);
    const long = `[REDACTED:${"😀".repeat(1014)}`;
    assert.equal(redactor.push(long), "");
    assert.equal(redactor.push("😀"), `${long}😀`);
  });

  await t.step("secrets inside a released long marker are still redacted", () => {
    const text = `[REDACTED:${"a".repeat(1100)}secretvalue123]`;
    for (const split of [5, 1050, 1115, 1120, text.length - 1]) {
      const output = stream(SECRETS, [text.slice(0, split), text.slice(split)]);
      assert.ok(!output.includes("secretvalue123"), `split ${split}`);
      assert.ok(output.includes("[REDACTED:MY_SECRET]"), `split ${split}`);
    }
  });

  await t.step("the results of section 4.7 hold while streaming", () => {
    const cases: [string, string][] = [
      ["[REDACTED:OTHER]", "[REDACTED:OTHER]"],
      ["[REDACTED:secretvalue123]", "[REDACTED:MY_SECRET]"],
      ["[REDACTED:TOKEN]", "[REDACTED:EVIL]"],
      ["secretvalue12", "secretvalue12"],
    ];
    for (const [text, expected] of cases) {
      for (let i = 0; i <= text.length; i++) {
        assert.equal(stream(SECRETS, [text.slice(0, i), text.slice(i)]), expected);
      }
    }
  });

  await t.step("cost does not grow with history", () => {
    const secrets = collectSecrets({ LONG_TOKEN: `${"a".repeat(4095)}b` }, /TOKEN/);
    const redactor = new StreamingRedactor(secrets);
    let released = 0;
    // Every character keeps a 4095-character prefix of the secret in play.
    for (let i = 0; i < 20_000; i++) released += redactor.push("a").length;
    released += redactor.flush().length;
    assert.equal(released, 20_000);
  });
});
