/**
 * Operating-system gates for tests. Only src/ is barred from branching on the OS (see
 * scripts/check_layers.ts); a test that needs Linux or POSIX says so here, and on other systems
 * it is reported as ignored instead of passing without having run:
 *
 * ```ts
 * linux.test("reads /proc", async () => {});
 * posix.test("runs /bin/sh and sends signals", async () => {});
 * Deno.test({ name: "makes symlinks", ignore: !ON_POSIX, fn: async () => {} });
 * await linux.step(t, "reads /proc", async () => {});
 * ```
 *
 * For the end-to-end tests: a test whose proof reads /proc (`processesWithMarker`, `isAlive`),
 * uses `setsid` or relies on containment is `linux`; one whose commands are POSIX shell text or
 * that sends signals is `posix` (the default shell on Windows is `cmd.exe`); one that only
 * exercises policy, schemas or HTTP, whatever its commands print, runs everywhere.
 *
 * (`linux.test` rather than `linuxTest`: deno fmt keeps `x.test("name", fn)` on one line as it
 * does `Deno.test`.) Nothing here touches the file system, so importing it is safe everywhere.
 */

/** Linux: `/proc`, util-linux `setsid`, and the server's containment (tokens, setsid spawns). */
export const ON_LINUX = Deno.build.os === "linux";

/** Windows: `cmd.exe` is the default shell; no signals, no process groups. */
export const ON_WINDOWS = Deno.build.os === "windows";

/** Any POSIX system (Linux, macOS, ...): `/bin/sh`, process groups and signals. */
export const ON_POSIX = !ON_WINDOWS;

type TestFn = (t: Deno.TestContext) => void | Promise<void>;

/** Tests and steps that run only where they are `supported`; elsewhere they are ignored. */
interface Gate {
  /** `Deno.test(name, fn)`, reported as ignored where unsupported. */
  test(name: string, fn: TestFn): void;
  /** `t.step(name, fn)`, reported as ignored where unsupported. */
  step(t: Deno.TestContext, name: string, fn: TestFn): Promise<boolean>;
}

function gate(supported: boolean): Gate {
  return {
    test(name, fn) {
      Deno.test({ name, ignore: !supported, fn });
    },
    step(t, name, fn) {
      return t.step({ name, ignore: !supported, fn });
    },
  };
}

/** Tests that need Linux (`/proc`, `setsid`, containment): ignored on other systems. */
export const linux = gate(ON_LINUX);

/** Tests that need a POSIX shell, process groups or signals: ignored on Windows. */
export const posix = gate(ON_POSIX);
