/**
 * One capture run for the spool bench, in its own process so that its peak memory can be read:
 * `deno run -P=test scripts/bench/spool_child.ts <spool|memory> <bytes> <spool dir>` runs
 * `head -c <bytes> /dev/zero | tr '\0' x` and feeds its stdout through the capture path of an
 * execution (Utf8Normalizer, then OutputLog.append) with the default sizes (256 KiB memory
 * cache, and with `spool`, a 1 GiB per-stream spool), then prints one JSON line:
 * `{ "ms": <capture time>, "bytes": <captured>, "hwmGrowthBytes": <VmHWM growth>, "onDisk": <bytes> }`.
 */
import { OutputLog } from "../../src/core/output_log.ts";
import { Spool } from "../../src/core/spool.ts";
import { Utf8Normalizer } from "../../src/core/utf8.ts";
import { currentSpoolDisk } from "../../src/platform/mod.ts";
import { procMemory } from "./proc_status.ts";
import { xBytesCommand } from "./session.ts";

const [mode, bytesText, root] = Deno.args;
const total = Number(bytesText);
const spool = mode === "spool"
  ? Spool.open({
    disk: currentSpoolDisk({}).disk,
    root,
    pid: Deno.pid,
    maxStreamBytes: 1_073_741_824,
    maxTotalBytes: 4_294_967_296,
  })
  : null;
await spool?.refreshSpace();
const log = new OutputLog({ capacityBytes: 262_144, spool: spool?.forExecution() ?? null });
const before = procMemory(Deno.pid).hwmBytes;
const started = performance.now();
const child = new Deno.Command("/bin/sh", {
  args: ["-c", xBytesCommand(total)],
  stdout: "piped",
  stderr: "null",
}).spawn();
const normalizer = new Utf8Normalizer();
for await (const chunk of child.stdout) {
  const bytes = normalizer.push(chunk);
  if (bytes.length > 0) log.append("stdout", bytes);
}
await child.status;
const ms = performance.now() - started;
const hwmGrowthBytes = procMemory(Deno.pid).hwmBytes - before;
const onDisk = spool?.usedBytes ?? 0;
const page = log.read({ startSeq: 1, maxBytes: 10 });
if (log.bytesCaptured("stdout") !== total) throw new Error("Captured the wrong byte count");
if (spool !== null && (page.evicted || log.spoolProblem !== null)) {
  throw new Error(`Spooled capture lost output: ${log.spoolProblem ?? "evicted"}`);
}
log.close();
await spool?.close();
console.log(JSON.stringify({ ms, bytes: total, hwmGrowthBytes, onDisk }));
