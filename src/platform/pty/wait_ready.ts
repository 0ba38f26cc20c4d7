import type { Libc } from "./libc.ts";

/** What a thread waits for on the master. */
export type Interest = "read" | "write";

const POLLIN = 0x1;
const POLLOUT = 0x4;
/** `select()` works only below FD_SETSIZE. */
const FD_SETSIZE = 1024;
/** Failed waits in a row after which the descriptor is taken as broken. */
const MAX_FAILED_WAITS = 100;

/**
 * Waits on a libc thread until `fd` is ready for `interest` or `wakeFd` (the read end of a
 * pipe that `close()` writes to) is readable. Returns "woken" when the wake pipe fired.
 */
export async function waitReady(
  libc: Libc,
  fds: { fd: number; wakeFd: number },
  interest: Interest,
): Promise<"ready" | "woken"> {
  for (let failures = 0; failures < MAX_FAILED_WAITS; failures++) {
    const outcome = libc.abi.readiness === "poll"
      ? await pollOnce(libc, fds, interest)
      : await selectOnce(libc, fds, interest);
    if (outcome !== "retry") return outcome;
  }
  throw new Error(`Cannot wait on terminal descriptor ${fds.fd}: poll/select keeps failing`);
}

async function pollOnce(
  libc: Libc,
  { fd, wakeFd }: { fd: number; wakeFd: number },
  interest: Interest,
): Promise<"ready" | "woken" | "retry"> {
  const table = new Uint8Array(16);
  const view = new DataView(table.buffer);
  view.setInt32(0, fd, true);
  view.setInt16(4, interest === "read" ? POLLIN : POLLOUT, true);
  view.setInt32(8, wakeFd, true);
  view.setInt16(12, POLLIN, true);
  // -1 is EINTR or a bad descriptor; errno lives on the pool thread, so retry a bounded number.
  if (await libc.symbols.poll(table, 2n, -1) <= 0) return "retry";
  if (view.getInt16(14, true) !== 0) return "woken";
  return view.getInt16(6, true) !== 0 ? "ready" : "retry";
}

async function selectOnce(
  libc: Libc,
  { fd, wakeFd }: { fd: number; wakeFd: number },
  interest: Interest,
): Promise<"ready" | "woken" | "retry"> {
  const highest = Math.max(fd, wakeFd);
  if (highest >= FD_SETSIZE) {
    throw new Error(
      `Cannot wait on terminal descriptor ${highest}: select() handles only descriptors below ${FD_SETSIZE}`,
    );
  }
  // fd_set is a little-endian bit array on every supported target: bit fd % 8 of byte fd / 8.
  const readSet = new Uint8Array(FD_SETSIZE / 8);
  const writeSet = new Uint8Array(FD_SETSIZE / 8);
  const mark = (set: Uint8Array, which: number) => set[which >> 3] |= 1 << (which & 7);
  const marked = (set: Uint8Array, which: number) => (set[which >> 3] & (1 << (which & 7))) !== 0;
  mark(readSet, wakeFd);
  mark(interest === "read" ? readSet : writeSet, fd);
  if (await libc.symbols.select(highest + 1, readSet, writeSet, null, null) <= 0) return "retry";
  if (marked(readSet, wakeFd)) return "woken";
  return marked(interest === "read" ? readSet : writeSet, fd) ? "ready" : "retry";
}
