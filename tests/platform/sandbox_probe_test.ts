import assert from "node:assert/strict";
import { describeFailure, probeBubblewrap } from "../../src/platform/bwrap_probe.ts";
import { openSandbox } from "../../src/platform/sandbox.ts";
import { BWRAP_UNAVAILABLE, HOST } from "./sandbox_harness.ts";

const OFF = "or set sandbox to off (--sandbox off, YIELDSHELL_SANDBOX=off)";
const USERNS = /^Cannot start the sandbox as the kernel refuses bubblewrap a user namespace \(/;

function hasProgram(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** An executable script in a fresh directory outside /tmp (which the sandbox hides). */
async function script(name: string, body: string): Promise<{ path: string; dir: string }> {
  const dir = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "ys-probe-" });
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`);
  await Deno.chmod(path, 0o755);
  return { path, dir };
}

Deno.test("off needs no sandbox anywhere", async () => {
  for (const os of ["linux", "darwin", "windows", "freebsd"]) {
    assert.deepEqual(await openSandbox({ os, mode: "off" }), { ok: true, sandbox: null });
  }
});

Deno.test("Windows (and other systems) refuse declared and strict with a clear message", async () => {
  for (const mode of ["declared", "strict"] as const) {
    assert.deepEqual(await openSandbox({ os: "windows", mode }), {
      ok: false,
      error: `Cannot start with sandbox: ${mode} as yieldshell has no OS sandbox on windows; ` +
        "set sandbox to off (--sandbox off, YIELDSHELL_SANDBOX=off), or run yieldshell on " +
        "Linux (bubblewrap) or macOS (sandbox-exec)",
    });
  }
});

Deno.test("a missing bwrap names the Debian package", async () => {
  const probe = await probeBubblewrap({
    bwrapCandidates: ["/nonexistent/bwrap", "/nowhere/bwrap"],
  });
  assert.deepEqual(probe, {
    ok: false,
    error: "Cannot start the sandbox as bubblewrap is not installed (no bwrap in " +
      "/nonexistent/bwrap, /nowhere/bwrap); install the Debian package bubblewrap " +
      `(apt-get install bubblewrap), ${OFF}`,
  });
});

Deno.test("kernel refusals of user namespaces name the settings", async (t) => {
  const messages = [
    // Debian with kernel.unprivileged_userns_clone=0, as bwrap words it.
    "bwrap: No permissions to creating new namespace, likely because the kernel does not allow " +
    "non-privileged user namespaces. On e.g. debian this can be enabled with " +
    "'sysctl kernel.unprivileged_userns_clone=1'.",
    // user.max_user_namespaces=0.
    "bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces " +
    "exceeded (ENOSPC)",
    // Ubuntu's AppArmor restriction.
    "bwrap: setting up uid map: Permission denied",
  ];
  for (const message of messages) {
    await t.step(message.slice(0, 50), () => {
      const error = describeFailure(message);
      assert.match(error, USERNS);
      assert.ok(error.includes(message));
      for (
        const setting of [
          "user.max_user_namespaces",
          "kernel.unprivileged_userns_clone",
          "kernel.apparmor_restrict_unprivileged_userns",
        ]
      ) {
        assert.ok(error.includes(setting), setting);
      }
      assert.ok(error.endsWith(OFF));
    });
  }
  await t.step("anything else is a failed self-test", () => {
    assert.equal(
      describeFailure("bwrap: Can't mount proc on /newroot/proc: Operation not permitted"),
      "Cannot start the sandbox as bubblewrap failed its self-test (bwrap: Can't mount proc on " +
        `/newroot/proc: Operation not permitted); ${OFF}`,
    );
  });
});

Deno.test({
  name: "a kernel without user namespaces fails the real self-test, naming the setting",
  // A user namespace of its own whose max_user_namespaces is 0: the real bwrap refuses there,
  // and nothing outside is touched.
  ignore: BWRAP_UNAVAILABLE !== null || !hasProgram("/usr/bin/unshare"),
  fn: async () => {
    const { path, dir } = await script(
      "bwrap",
      `exec /usr/bin/unshare --user --map-root-user /bin/sh -c ` +
        `'echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" "$@"' ${HOST.bwrapPath} "$@"`,
    );
    try {
      const probe = await probeBubblewrap({ bwrapCandidates: [path] });
      assert.ok(!probe.ok);
      assert.match(probe.error, USERNS);
      assert.match(probe.error, /max_\*_namespaces exceeded/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "an env without --default-signal: the sandbox runs without the signal shield",
  ignore: BWRAP_UNAVAILABLE !== null,
  fn: async () => {
    const { path, dir } = await script(
      "env",
      `[ "$1" = --default-signal ] && { echo "env: unrecognized option '--default-signal'" >&2; ` +
        'exit 125; }; exec /usr/bin/env "$@"',
    );
    try {
      const probe = await probeBubblewrap({ envCandidates: [path] });
      assert.ok(probe.ok, JSON.stringify(probe));
      assert.equal(probe.host.envPath, null);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "on this machine the probe passes and finds the signal shield",
  ignore: BWRAP_UNAVAILABLE !== null,
  fn: async () => {
    const opening = await openSandbox({ os: "linux", mode: "declared" });
    assert.ok(opening.ok && opening.sandbox !== null);
    assert.equal(opening.sandbox.name, "bubblewrap");
    assert.equal(HOST.session, "caller");
    assert.ok(HOST.envPath !== null, "coreutils env with --default-signal");
  },
});
