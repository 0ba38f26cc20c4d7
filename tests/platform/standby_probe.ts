/** What marks the standbys of one test file: `deno test --parallel` runs files in one process. */
export const STANDBY_MARK_VARIABLE = "YS_STANDBY_TEST";

/**
 * The idle standby carrying `mark` in its environment (the launcher text is in its argv from
 * the spawn on), if any. Another file's standby has this process as its parent too, so the
 * parent alone does not tell them apart.
 */
export function idleStandby(mark: string): number | null {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      if (!argv.includes("_ys_standby_lines")) continue;
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`).split("\0");
      if (parent === Deno.pid && environ.includes(`${STANDBY_MARK_VARIABLE}=${mark}`)) {
        return Number(entry.name);
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return null;
}
