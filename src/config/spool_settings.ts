import type { Settings } from "./setting.ts";
import { optionalText, positiveInteger } from "./value_schemas.ts";

/** The output spool: whether output older than the memory cache is kept on disk, where, how much. */
export const SPOOL_SETTINGS: Pick<
  Settings,
  "spool" | "spoolDir" | "maxSpoolBytes" | "maxSpoolTotalBytes"
> = {
  spool: {
    fileKey: "spool",
    env: "YIELDSHELL_SPOOL",
    flag: "spool",
    valueName: "on|off",
    schema: (z) =>
      z.union([z.enum(["on", "off"]), z.boolean()]).transform((value) =>
        value === true ? "on" : value === false ? "off" : value
      ),
    expected: "on or off",
    default: () => "on",
    description:
      "on: every byte of output is kept on disk within max_spool_bytes, with max_buffer_bytes as a memory cache of the newest bytes, so cursors reach the whole history; off: the memory buffer is all that is kept (the contract's retention).",
  },
  spoolDir: {
    fileKey: "spool_dir",
    env: "YIELDSHELL_SPOOL_DIR",
    flag: "spool-dir",
    valueName: "path",
    schema: optionalText,
    expected: "a directory path",
    default: () => null,
    description:
      "Directory in which the server makes its private spool directory (named by its process id, mode 0700) and removes those of dead servers; empty or null means yieldshell-spool in the system temp directory. The server needs write permission there only.",
  },
  maxSpoolBytes: {
    fileKey: "max_spool_bytes",
    env: "YIELDSHELL_MAX_SPOOL_BYTES",
    flag: "max-spool-bytes",
    valueName: "bytes",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 1_073_741_824,
    description:
      "Bytes of output kept for each stream of each execution when spooling; older bytes are evicted (reads report evicted).",
  },
  maxSpoolTotalBytes: {
    fileKey: "max_spool_total_bytes",
    env: "YIELDSHELL_MAX_SPOOL_TOTAL_BYTES",
    flag: "max-spool-total-bytes",
    valueName: "bytes",
    form: "integer",
    schema: positiveInteger,
    expected: "a positive integer",
    default: () => 4_294_967_296,
    description:
      "Bytes of spooled output on disk for the whole server, and never more than the free space of its file system minus a margin (256 MiB, or a tenth of a small file system); the oldest files of any execution go first.",
  },
};
