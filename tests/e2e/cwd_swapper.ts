/**
 * Run by cwd_race_test.ts, never imported: swaps DIR between the real directory and a symlink
 * to TARGET, each for about DWELL_MS (so checks see the directory, and spawns may meet the
 * link), until killed. It only renames and links inside DIR's parent.
 */
const [dir, target, dwell = "1"] = Deno.args;
const away = `${dir}.away`;
const dwellMs = Number(dwell);
const pause = new Int32Array(new SharedArrayBuffer(4));
Deno.stdout.writeSync(new TextEncoder().encode("swapping\n"));
for (;;) {
  try {
    Atomics.wait(pause, 0, 0, dwellMs);
    Deno.renameSync(dir, away);
    Deno.symlinkSync(target, dir);
    Atomics.wait(pause, 0, 0, dwellMs);
    Deno.removeSync(dir);
    Deno.renameSync(away, dir);
  } catch {
    // A step failed halfway (never expected): put the directory back and go on.
    try {
      Deno.removeSync(dir);
    } catch { /* not there */ }
    try {
      Deno.renameSync(away, dir);
    } catch { /* already back */ }
  }
}
