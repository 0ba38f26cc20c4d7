import assert from "node:assert/strict";
import type { Confinement as PlatformConfinement } from "../../src/platform/sandbox_types.ts";
import { confine, type Confinement } from "../../src/policy/sandbox_confinement.ts";

const READ_ONLY = { filesystem: "read-only", network: false } as const;
const WORKSPACE = { filesystem: "workspace-writable", network: true } as const;

// What policy computes is what the platform's builders take.
const _sameShape: PlatformConfinement = {} as Confinement;

Deno.test("read-only profiles write nothing and keep the cwd and the roots visible", () => {
  const decision = confine(READ_ONLY, { cwd: "/tmp/w/src", allowedRoots: ["/tmp/w", "/srv/b"] });
  assert.deepEqual(decision, {
    allow: true,
    confinement: {
      cwd: "/tmp/w/src",
      network: false,
      writable: [],
      visible: ["/tmp/w/src", "/tmp/w", "/srv/b"],
    },
  });
});

Deno.test("workspace profiles write the allowed roots, or the cwd when none are set", () => {
  assert.deepEqual(confine(WORKSPACE, { cwd: "/w/a", allowedRoots: ["/w", "/x", "/w", ""] }), {
    allow: true,
    confinement: {
      cwd: "/w/a",
      network: true,
      writable: ["/w", "/x"],
      visible: ["/w/a", "/w", "/x"],
    },
  });
  assert.deepEqual(confine(WORKSPACE, { cwd: "/w/a", allowedRoots: [] }), {
    allow: true,
    confinement: { cwd: "/w/a", network: true, writable: ["/w/a"], visible: ["/w/a"] },
  });
});

Deno.test("a workspace at / is refused: it would confine nothing", () => {
  assert.deepEqual(confine(WORKSPACE, { cwd: "/", allowedRoots: [] }), {
    allow: false,
    reason: "Cannot confine writes to the workspace as it is the root directory /; " +
      "set allowed_cwds to the project directories",
  });
  // Reading from / is fine.
  assert.ok(confine(READ_ONLY, { cwd: "/", allowedRoots: [] }).allow);
});

Deno.test("relative paths are refused", () => {
  assert.deepEqual(confine(READ_ONLY, { cwd: "w", allowedRoots: [] }), {
    allow: false,
    reason: "Cannot sandbox a relative path: w; resolve it first",
  });
});

Deno.test("a root inside another is not bound again: the outer one already writes it", () => {
  const decision = confine(WORKSPACE, { cwd: "/w/a", allowedRoots: ["/w/a", "/w", "/x/y", "/x"] });
  assert.ok(decision.allow);
  assert.deepEqual(decision.confinement.writable, ["/w", "/x"]);
});
