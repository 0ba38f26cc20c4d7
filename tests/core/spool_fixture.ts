import { Spool, type SpoolOptions } from "../../src/core/spool.ts";
import { createSpoolDisk } from "../../src/platform/spool_disk.ts";
import { ON_WINDOWS } from "../os.ts";

/** The real disk with free space unknown, so no `df` runs. */
export const quietDisk = {
  ...createSpoolDisk({ windows: ON_WINDOWS }),
  space: () => Promise.resolve(null),
};

/** A spool in `root` on the real disk: 1 GiB per stream, 4 GiB in all, unless `options` differ. */
export function openTestSpool(root: string, options: Partial<SpoolOptions> = {}): Spool {
  return Spool.open({
    disk: quietDisk,
    root,
    pid: Deno.pid,
    maxStreamBytes: 1 << 30,
    maxTotalBytes: 2 ** 32,
    ...options,
  });
}
