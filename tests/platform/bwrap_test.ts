import assert from "node:assert/strict";
import { bwrapArgv, type BwrapHost } from "../../src/platform/bwrap.ts";
import { PIN_FUNCTION } from "../../src/platform/cwd_pin.ts";
import { SANDBOX_INIT, SHIELDED_SIGNALS } from "../../src/platform/sandbox_init.ts";
import type { Confinement } from "../../src/platform/sandbox_types.ts";

const SHELL = { program: "/bin/sh", args: ["-c", "echo hi"] };
const HOST = { bwrapPath: "/usr/bin/bwrap" };
const NAMESPACES = [
  "--unshare-user",
  "--unshare-ipc",
  "--unshare-pid",
  "--unshare-uts",
  "--unshare-cgroup-try",
];
const BASE_MOUNTS = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
const PIN = `${PIN_FUNCTION}; pin "$1"`;

function offline(cwd: string, extra: Partial<Confinement> = {}): Confinement {
  return { cwd, network: false, writable: [], visible: [cwd], ...extra };
}

/** The three parts of the argv: the host launcher, bubblewrap's options, and the sandbox's init. */
function parts(confinement: Confinement, host: BwrapHost) {
  const { program, args } = bwrapArgv(SHELL, confinement, host);
  assert.equal(program, "/bin/sh");
  assert.equal(args[0], "-c");
  const end = args.indexOf("--");
  return {
    launcher: args[1],
    bwrap: args[2],
    pinned: args[3],
    options: args.slice(4, end),
    init: args.slice(end + 1),
  };
}

function mountsOf(options: string[]): string[] {
  return options.slice(options.indexOf("--ro-bind"), options.indexOf("--chdir"));
}

Deno.test("NONE: read-only root, private /tmp, /dev and /proc, no network, no capabilities", () => {
  const { launcher, bwrap, pinned, options, init } = parts(offline("/srv/w"), HOST);
  assert.equal(launcher, `${PIN}; shift; exec "$0" "$@"`);
  assert.deepEqual([bwrap, pinned], ["/usr/bin/bwrap", "/srv/w"]);
  assert.deepEqual(options, [
    ...NAMESPACES,
    "--unshare-net",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    ...BASE_MOUNTS,
    "--chdir",
    "/srv/w",
  ]);
  // The sandbox's PID 1 pins the cwd again, then runs the shell (no env: none was found).
  assert.deepEqual(init, [
    "/bin/sh",
    "-c",
    SANDBOX_INIT,
    "yieldshell-sandbox",
    "/srv/w",
    "",
    "/bin/sh",
    "-c",
    "echo hi",
  ]);
});

Deno.test("the sandbox's init: forwards stop signals to daemons, pins, waits for everything", () => {
  for (const signal of SHIELDED_SIGNALS) {
    assert.ok(SANDBOX_INIT.includes(` ${signal}`), signal);
  }
  assert.match(SANDBOX_INIT, /trap "fwd \$s" "\$s"/);
  assert.ok(SANDBOX_INIT.includes(`${PIN_FUNCTION}\npin "$1"`));
  assert.match(SANDBOX_INIT, /^exec 3<&-/, "the launcher's cwd fd never reaches the command");
  assert.match(SANDBOX_INIT, /for p in \/proc\/\[0-9\]\*/);
  assert.match(SANDBOX_INIT, /exit "\$status"$/);
});

Deno.test("the network shares the host's: no --unshare-net, /run stays", () => {
  const { options } = parts(offline("/srv/w", { network: true }), {
    ...HOST,
    offlineHidden: ["/run"],
  });
  assert.ok(!options.includes("--unshare-net"));
  assert.ok(!options.join(" ").includes("--tmpfs /run"));
  assert.ok(options.includes("--cap-drop") && options[options.indexOf("--cap-drop") + 1] === "ALL");
});

Deno.test("offline hides /run; a cwd below a hidden directory is bound from the pinned fd", () => {
  const confinement = offline("/tmp/w/src", {
    visible: ["/tmp/w/src", "/tmp/w", "/run/x", "/srv"],
  });
  const { launcher, options } = parts(confinement, { ...HOST, offlineHidden: ["/run"] });
  assert.deepEqual(mountsOf(options), [
    ...BASE_MOUNTS,
    "--tmpfs",
    "/run",
    // Parents before children; /srv is not hidden, so the read-only root shows it already.
    "--ro-bind-try",
    "/tmp/w",
    "/tmp/w",
    "--ro-bind-try",
    "/run/x",
    "/run/x",
    // The cwd: the directory the launcher checked and opened, not whatever the path is now.
    "--ro-bind-fd",
    "3",
    "/tmp/w/src",
  ]);
  assert.equal(launcher, `${PIN}; exec 3<.; shift; exec "$0" "$@"`);
});

Deno.test("writable roots are bound read-write after the hidden directories", () => {
  const confinement: Confinement = {
    cwd: "/tmp/w/src",
    network: false,
    writable: ["/tmp/w", "/srv/b"],
    visible: ["/tmp/w/src", "/tmp/w", "/srv/b"],
  };
  const { launcher, options } = parts(confinement, HOST);
  // The cwd lies in a writable root: no bind of its own, and no fd to open.
  assert.deepEqual(mountsOf(options).slice(BASE_MOUNTS.length - 2), [
    "--tmpfs",
    "/tmp",
    "--bind-try",
    "/tmp/w",
    "/tmp/w",
    "--bind-try",
    "/srv/b",
    "/srv/b",
  ]);
  assert.ok(!launcher.includes("exec 3<."));
});

Deno.test("a writable cwd (no roots) is bound read-write from the pinned fd", () => {
  const { launcher, options } = parts(offline("/srv/w", { writable: ["/srv/w"] }), HOST);
  assert.deepEqual(mountsOf(options).slice(BASE_MOUNTS.length), ["--bind-fd", "3", "/srv/w"]);
  assert.ok(launcher.includes("exec 3<."));
});

Deno.test("a caller session: no --new-session, and bwrap runs under a signal shield", () => {
  const { launcher, options, init } = parts(offline("/w"), {
    ...HOST,
    session: "caller",
    envPath: "/usr/bin/env",
  });
  assert.equal(
    launcher,
    `trap '' ${SHIELDED_SIGNALS.join(" ")}; ${PIN}; shift; exec "$0" "$@"`,
  );
  assert.ok(!options.includes("--new-session"));
  // PID 1 and the shell get their signals back from env.
  assert.deepEqual(init.slice(0, 3), ["/usr/bin/env", "--default-signal", "/bin/sh"]);
  assert.deepEqual(init.slice(6), ["/w", "/usr/bin/env", "/bin/sh", "-c", "echo hi"]);
  for (const never of ["CHLD", "KILL", "STOP", "CONT"]) {
    assert.ok(!(SHIELDED_SIGNALS as readonly string[]).includes(never), never);
  }
});

Deno.test("a caller session without a capable env: no shield, and no env inside", () => {
  const { launcher, options, init } = parts(offline("/w"), { ...HOST, session: "caller" });
  assert.ok(!launcher.startsWith("trap"));
  assert.ok(!options.includes("--new-session"));
  assert.deepEqual(init.slice(0, 2), ["/bin/sh", "-c"]);
  assert.deepEqual(init.slice(4), ["/w", "", "/bin/sh", "-c", "echo hi"]);
});

Deno.test("relative paths are a programming error", () => {
  assert.throws(() => bwrapArgv(SHELL, offline("w"), HOST), {
    message: "Cannot sandbox a relative path: w",
  });
});
