import assert from "node:assert/strict";
import type { Admission } from "../../src/contract/admission.ts";
import { placeExecution, type PlacementRules } from "../../src/policy/sandbox_admission.ts";

const ADMITTED: Admission = { allow: true, cwd: "/w/a" };
const OFF: PlacementRules = { mode: "off", allowUnconfined: new Set(), allowedRoots: [] };
const DECLARED: PlacementRules = { ...OFF, mode: "declared" };

function grantOf(admission: Admission) {
  assert.ok(admission.allow, JSON.stringify(admission));
  assert.ok(admission.sandbox, "a sandbox grant");
  return admission.sandbox;
}

Deno.test("off: no sandbox; the cwd is pinned only when it was checked against roots", () => {
  assert.deepEqual(placeExecution(ADMITTED, ["NONE"], OFF), {
    ...ADMITTED,
    cwdChecked: false,
    sandbox: null,
  });
  const rooted = placeExecution(ADMITTED, ["NONE"], { ...OFF, allowedRoots: ["/w"] });
  assert.ok(rooted.allow && rooted.cwdChecked === true);
});

Deno.test("a refusal earlier in admission stays that refusal", () => {
  const refused: Admission = { allow: false, reason: "Cwd not under allowed roots: /etc" };
  assert.equal(placeExecution(refused, ["UNKNOWN"], DECLARED), refused);
});

Deno.test("declared: the profile of the declared side effects, confined to the workspace", () => {
  const none = grantOf(placeExecution(ADMITTED, ["NONE"], DECLARED));
  assert.equal(none.label, "read-only, no network");
  assert.deepEqual(none.confinement, {
    cwd: "/w/a",
    network: false,
    writable: [],
    visible: ["/w/a"],
  });
  const writes = grantOf(
    placeExecution(ADMITTED, ["MODIFIES_WORKSPACE_FILES", "MAKES_NETWORK_REQUESTS"], {
      ...DECLARED,
      allowedRoots: ["/w"],
    }),
  );
  assert.equal(writes.label, "workspace-writable, network");
  assert.deepEqual(writes.confinement?.writable, ["/w"]);
});

Deno.test("the grant explains a failure its profile caused, and nothing else", () => {
  const none = grantOf(placeExecution(ADMITTED, ["NONE"], DECLARED));
  const stderr = "sh: 1: cannot create out.txt: Read-only file system\n";
  assert.match(none.explain({ exitCode: 2, stderr }) ?? "", /declare MODIFIES_WORKSPACE_FILES/);
  assert.equal(none.explain({ exitCode: 0, stderr }), null);
  assert.equal(none.explain({ exitCode: 1, stderr: "grep: no match\n" }), null);
});

Deno.test("unconfinable categories: refused under declared unless allowed, then unconfined", () => {
  const refused = placeExecution(ADMITTED, ["UNKNOWN"], DECLARED);
  assert.ok(!refused.allow);
  assert.match(refused.reason, /allow_unconfined \(--allow-unconfined UNKNOWN/);
  const allowed = grantOf(
    placeExecution(ADMITTED, ["UNKNOWN"], { ...DECLARED, allowUnconfined: new Set(["UNKNOWN"]) }),
  );
  assert.deepEqual([allowed.label, allowed.confinement], ["unconfined", null]);
  assert.equal(allowed.explain({ exitCode: 1, stderr: "Read-only file system" }), null);
});

Deno.test("strict: whatever is declared runs in the workspace, allow_unconfined ignored", () => {
  const strict = grantOf(
    placeExecution(ADMITTED, ["MODIFIES_OUTSIDE_WORKSPACE"], {
      ...DECLARED,
      mode: "strict",
      allowUnconfined: new Set(["MODIFIES_OUTSIDE_WORKSPACE"]),
    }),
  );
  assert.equal(strict.label, "workspace-writable, no network");
  assert.deepEqual(strict.confinement?.writable, ["/w/a"]);
});

Deno.test("a workspace at / is refused before anything starts", () => {
  const root = placeExecution({ allow: true, cwd: "/" }, ["DELETES_FILES"], DECLARED);
  assert.ok(!root.allow);
  assert.match(root.reason, /root directory \//);
});
