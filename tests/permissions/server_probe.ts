/**
 * Preloaded into the real server by server_permissions_test.ts (`deno run --preload`), never
 * imported: on SIGUSR2 it reports, as one stderr line, what code inside the running server (a
 * compromised dependency, say) can still reach after startup.
 */
import process from "node:process";

function attempt(what: () => unknown): string {
  try {
    what();
    return "allowed";
  } catch (error) {
    return error instanceof Deno.errors.NotCapable ? "denied" : `error: ${error}`;
  }
}

Deno.addSignalListener("SIGUSR2", () => {
  const report = {
    envGet: attempt(() => Deno.env.get("PROBE_MARK")),
    envObject: attempt(() => Deno.env.toObject()),
    processEnv: attempt(() => process.env.PROBE_MARK),
    envState: Deno.permissions.querySync({ name: "env" }).state,
    deniedRead: attempt(() => Deno.readTextFileSync("/etc/shadow")),
    write: attempt(() => Deno.writeTextFileSync("/tmp/ys-probe-must-not-exist", "x")),
  };
  Deno.stderr.writeSync(new TextEncoder().encode(`permission-probe ${JSON.stringify(report)}\n`));
});
