import assert from "node:assert/strict";
import { bwrapArgv, SHIELDED_SIGNALS } from "../../src/platform/bwrap.ts";
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

function offline(cwd: string, extra: Partial<Confinement> = {}): Confinement {
  return { cwd, network: false, writable: [], visible: [cwd], ...extra };
}

Deno.test("NONE: read-only root, private /tmp, /dev and /proc, no network, no capabilities", () => {
  assert.deepEqual(bwrapArgv(SHELL, offline("/srv/w"), HOST), {
    program: "/usr/bin/bwrap",
    args: [
      ...NAMESPACES,
      "--unshare-net",
      "--die-with-parent",
      "--new-session",
      "--cap-drop",
      "ALL",
      ...BASE_MOUNTS,
      "--chdir",
      "/srv/w",
      "--",
      "/bin/sh",
      "-c",
      "echo hi",
    ],
  });
});

Deno.test("the network shares the host's: no --unshare-net, /run stays", () => {
  const { args } = bwrapArgv(SHELL, offline("/srv/w", { network: true }), {
    ...HOST,
    offlineHidden: ["/run"],
  });
  assert.ok(!args.includes("--unshare-net"));
  assert.ok(!args.join(" ").includes("--tmpfs /run"));
  assert.ok(args.includes("--cap-drop") && args[args.indexOf("--cap-drop") + 1] === "ALL");
});

Deno.test("offline hides /run, and a cwd below a hidden directory stays visible read-only", () => {
  const confinement = offline("/tmp/w/src", {
    visible: ["/tmp/w/src", "/tmp/w", "/run/x", "/srv"],
  });
  const { args } = bwrapArgv(SHELL, confinement, { ...HOST, offlineHidden: ["/run"] });
  const mounts = args.slice(args.indexOf("--ro-bind"), args.indexOf("--chdir"));
  assert.deepEqual(mounts, [
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
    "--ro-bind-try",
    "/tmp/w/src",
    "/tmp/w/src",
  ]);
});

Deno.test("writable roots are bound read-write after the hidden directories", () => {
  const confinement: Confinement = {
    cwd: "/tmp/w/src",
    network: false,
    writable: ["/tmp/w", "/srv/b"],
    visible: ["/tmp/w/src", "/tmp/w", "/srv/b"],
  };
  const { args } = bwrapArgv(SHELL, confinement, HOST);
  const mounts = args.slice(args.indexOf("--tmpfs"), args.indexOf("--chdir"));
  // The cwd lies in a writable root: no read-only bind over it.
  assert.deepEqual(mounts, [
    "--tmpfs",
    "/tmp",
    "--bind-try",
    "/tmp/w",
    "/tmp/w",
    "--bind-try",
    "/srv/b",
    "/srv/b",
  ]);
});

Deno.test("a caller session: no --new-session, and bwrap runs under a signal shield", () => {
  const { program, args } = bwrapArgv(SHELL, offline("/w"), {
    ...HOST,
    session: "caller",
    envPath: "/usr/bin/env",
  });
  assert.equal(program, "/bin/sh");
  assert.equal(args[0], "-c");
  assert.equal(args[1], `trap '' ${SHIELDED_SIGNALS.join(" ")}; exec "$0" "$@"`);
  assert.equal(args[2], "/usr/bin/bwrap");
  assert.ok(!args.includes("--new-session"));
  assert.deepEqual(args.slice(args.indexOf("--")), [
    "--",
    "/usr/bin/env",
    "--default-signal",
    "/bin/sh",
    "-c",
    "echo hi",
  ]);
  for (const never of ["CHLD", "KILL", "STOP", "CONT"]) {
    assert.ok(!(SHIELDED_SIGNALS as readonly string[]).includes(never), never);
  }
});

Deno.test("a caller session without a capable env: bwrap directly, no shield", () => {
  const { program, args } = bwrapArgv(SHELL, offline("/w"), { ...HOST, session: "caller" });
  assert.equal(program, "/usr/bin/bwrap");
  assert.ok(!args.includes("--new-session"));
  assert.deepEqual(args.slice(args.indexOf("--")), ["--", "/bin/sh", "-c", "echo hi"]);
});

Deno.test("relative paths are a programming error", () => {
  assert.throws(() => bwrapArgv(SHELL, offline("w"), HOST), {
    message: "Cannot sandbox a relative path: w",
  });
});
