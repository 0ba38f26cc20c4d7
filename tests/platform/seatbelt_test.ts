import assert from "node:assert/strict";
import { PIN_FUNCTION } from "../../src/platform/cwd_pin.ts";
import { SANDBOX_EXEC, sandboxExecArgv, seatbeltProfile } from "../../src/platform/seatbelt.ts";
import type { Confinement } from "../../src/platform/sandbox_types.ts";

const DEVICES = '(literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") ' +
  '(regex #"^/dev/tty") (regex #"^/dev/fd/") (literal "/dev/stdout") (literal "/dev/stderr")';

const NONE: Confinement = { cwd: "/Users/me/w", network: false, writable: [], visible: [] };

Deno.test("NONE: writes only to the private temporary directory, no network", () => {
  assert.equal(
    seatbeltProfile(NONE),
    [
      "(version 1)",
      "(allow default)",
      "(deny signal)",
      "(allow signal (target same-sandbox))",
      "(deny process-info*)",
      "(allow process-info* (target same-sandbox))",
      "(deny file-write*)",
      `(allow file-write* (subpath (param "TMP")) ${DEVICES})`,
      "(deny network*)",
      "",
    ].join("\n"),
  );
});

Deno.test("workspace and network: the roots are writable parameters, the network is open", () => {
  const profile = seatbeltProfile({
    cwd: "/Users/me/w",
    network: true,
    writable: ["/Users/me/w", '/Users/me/odd "name"'],
    visible: [],
  });
  assert.ok(profile.includes(
    `(allow file-write* (subpath (param "TMP")) (subpath (param "W0")) (subpath (param "W1")) ${DEVICES})`,
  ));
  assert.ok(!profile.includes("network"));
  // No path is ever spelled inside the profile, so none needs quoting.
  assert.ok(!profile.includes("/Users"));
});

Deno.test("sandbox-exec argv: a fresh TMPDIR made outside, paths as -D parameters", () => {
  const confinement = { ...NONE, writable: ["/Users/me/w"] };
  const { program, args } = sandboxExecArgv(
    { program: "/bin/sh", args: ["-c", "make"] },
    confinement,
  );
  assert.equal(program, "/bin/sh");
  assert.equal(args[0], "-c");
  assert.match(args[1], /mktemp -d/);
  assert.ok(args[1].startsWith(`${PIN_FUNCTION}; pin "$1"; shift; `), "the cwd is pinned first");
  assert.match(args[1], /export TMPDIR; exec "\$0" -D TMP="\$d" "\$@"$/);
  assert.deepEqual(args.slice(2), [
    SANDBOX_EXEC,
    "/Users/me/w",
    "-D",
    "W0=/Users/me/w",
    "-p",
    seatbeltProfile(confinement),
    "/bin/sh",
    "-c",
    "make",
  ]);
});
