/**
 * Run by server_permissions_test.ts under the shipped `-P=server` set, never imported. It
 * reports, as one JSON line, whether each path named on the command line can be read, and
 * then what the environment looks like after the startup snapshot and `revokeSync({ name: "env" })`,
 * as main.ts does it (server_probe.ts checks the running server itself).
 */
const reads: Record<string, string> = {};
for (const path of Deno.args) {
  try {
    Deno.readTextFileSync(path);
    reads[path] = "read";
  } catch (error) {
    reads[path] = error instanceof Deno.errors.NotCapable ? "denied" : "os-error";
  }
}

// The startup snapshot main.ts takes, then the revocation.
const snapshot = Deno.env.toObject();
const revoked = Deno.permissions.revokeSync({ name: "env" }).state;
let envAfter: string;
try {
  envAfter = Deno.env.get("PROBE_MARK") ?? "unset";
} catch (error) {
  envAfter = error instanceof Deno.errors.NotCapable ? "denied" : String(error);
}
const decoder = new TextDecoder();
// Children get the snapshot explicitly, as the server passes every child's environment.
const explicit = new Deno.Command("/bin/sh", {
  args: ["-c", 'printf %s "$PROBE_MARK"'],
  env: { PATH: snapshot.PATH ?? "/usr/bin:/bin", PROBE_MARK: snapshot.PROBE_MARK ?? "" },
  clearEnv: true,
}).outputSync();
// And a child that is given nothing still inherits the process environment.
const inherited = new Deno.Command("/bin/sh", { args: ["-c", 'printf %s "$PROBE_MARK"'] })
  .outputSync();

const report = {
  reads,
  revoked,
  envAfter,
  childExplicit: decoder.decode(explicit.stdout),
  childInherited: decoder.decode(inherited.stdout),
};
await Deno.stdout.write(new TextEncoder().encode(`${JSON.stringify(report)}\n`));
