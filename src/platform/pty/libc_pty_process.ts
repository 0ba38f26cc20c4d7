import type { ShellExit } from "../../core/process.ts";
import type { Libc } from "./libc.ts";
import { type Interest, waitReady } from "./wait_ready.ts";
import type { PtyProcess, PtyState } from "./types.ts";
import { decodeWaitStatus } from "./wait_status.ts";

/** Bytes read from the master per call. */
const READ_CHUNK_BYTES = 64 * 1024;
/** Failed waitpid calls in a row after which the exit is reported as unknown. */
const MAX_FAILED_WAITS = 1000;

/** The descriptors and child a spawn hands over. */
export interface LibcPtyParts {
  libc: Libc;
  master: number;
  wakeRead: number;
  wakeWrite: number;
  pid: number;
  signals: Readonly<Record<string, number>>;
}

/** A program on a libc pseudo-terminal: the master is non-blocking, waits run on libc threads. */
export class LibcPtyProcess implements PtyProcess {
  readonly pid: number;
  readonly output: ReadableStream<Uint8Array>;
  readonly exited: Promise<ShellExit>;
  #libc: Libc;
  #master: number;
  #wake: { read: number; write: number };
  #closed = false;
  #closing: Promise<void> | null = null;
  /** Waits running on libc threads that still name the descriptors. */
  #inflight = new Set<Promise<unknown>>();
  #writes: Promise<void> = Promise.resolve();
  #readBuffer = new Uint8Array(READ_CHUNK_BYTES);

  constructor(parts: LibcPtyParts) {
    this.#libc = parts.libc;
    this.#master = parts.master;
    this.#wake = { read: parts.wakeRead, write: parts.wakeWrite };
    this.pid = parts.pid;
    this.exited = this.#waitForExit(parts.signals);
    this.output = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const chunk = await this.#readChunk();
        if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      },
    });
  }

  write(bytes: Uint8Array): Promise<void> {
    const next = this.#writes.then(() => this.#writeAll(bytes));
    this.#writes = next.catch(() => {});
    return next;
  }

  resize(cols: number, rows: number): void {
    for (const [name, value] of [["cols", cols], ["rows", rows]] as const) {
      if (!Number.isInteger(value) || value < 1 || value > 65535) {
        throw new RangeError(
          `Cannot resize the terminal as ${name} must be an integer from 1 to 65535: received ${value}`,
        );
      }
    }
    this.#assertOpen("resize the terminal");
    const size = new Uint8Array(new Uint16Array([rows, cols, 0, 0]).buffer);
    if (this.#libc.ioctl(this.#master, this.#libc.abi.TIOCSWINSZ, size) !== 0) {
      throw new Error(`Cannot resize the terminal: ioctl failed with errno ${this.#libc.errno()}`);
    }
  }

  state(): PtyState {
    this.#assertOpen("read the terminal state");
    const { termios } = this.#libc.abi;
    const buffer = new Uint8Array(termios.size + 64);
    if (this.#libc.symbols.tcgetattr(this.#master, buffer) !== 0) {
      throw new Error(`Cannot read the terminal state: errno ${this.#libc.errno()}`);
    }
    const lflag = new DataView(buffer.buffer).getUint32(termios.lflagOffset, true);
    const group = this.#libc.symbols.tcgetpgrp(this.#master);
    return {
      echo: (lflag & termios.ECHO) !== 0,
      canonical: (lflag & termios.ICANON) !== 0,
      foregroundGroup: group > 0 ? group : null,
    };
  }

  signal(signal: string): boolean {
    let delivered = sendToGroup(this.pid, signal);
    const foreground = this.#foregroundGroup();
    if (foreground !== null && foreground !== this.pid) {
      delivered = sendToGroup(foreground, signal) || delivered;
    }
    return delivered;
  }

  /** The foreground group, or null when closed or not known (a stop must not throw). */
  #foregroundGroup(): number | null {
    if (this.#closed) return null;
    try {
      return this.state().foregroundGroup;
    } catch {
      return null;
    }
  }

  async signalSession(signal: string): Promise<boolean> {
    const name = signal.replace(/^SIG/, "");
    const { code } = await new Deno.Command("pkill", {
      args: [`-${name}`, "-s", String(this.pid)],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return code === 0;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      // A byte left in the wake pipe ends every current and future wait on the master.
      this.#libc.symbols.write(this.#wake.write, new Uint8Array([1]), 1n);
      await Promise.allSettled([...this.#inflight]);
      await this.#writes;
      this.#libc.symbols.close(this.#master);
      this.#libc.symbols.close(this.#wake.read);
      this.#libc.symbols.close(this.#wake.write);
    })();
    return this.#closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #readChunk(): Promise<Uint8Array | null> {
    const { symbols, abi } = this.#libc;
    for (;;) {
      if (this.#closed) return null;
      const count = Number(symbols.read(this.#master, this.#readBuffer, BigInt(READ_CHUNK_BYTES)));
      if (count > 0) return this.#readBuffer.slice(0, count);
      if (count === 0) return null;
      const errno = this.#libc.errno();
      if (errno === abi.EINTR) continue;
      if (errno !== abi.EAGAIN) return null; // EIO: no process holds the terminal any more.
      if (await this.#wait("read") === "woken") return null;
    }
  }

  async #writeAll(bytes: Uint8Array): Promise<void> {
    const { symbols, abi } = this.#libc;
    let offset = 0;
    while (offset < bytes.length) {
      this.#assertOpen("write to the terminal");
      const rest = bytes.subarray(offset);
      const count = Number(symbols.write(this.#master, rest, BigInt(rest.length)));
      if (count > 0) {
        offset += count;
        continue;
      }
      const errno = this.#libc.errno();
      if (errno === abi.EINTR) continue;
      if (errno !== abi.EAGAIN) {
        throw new Error(`Cannot write to the terminal: write failed with errno ${errno}`);
      }
      if (await this.#wait("write") === "woken") this.#assertOpen("write to the terminal");
    }
  }

  #wait(interest: Interest): Promise<"ready" | "woken"> {
    const waiting = waitReady(this.#libc, { fd: this.#master, wakeFd: this.#wake.read }, interest);
    this.#inflight.add(waiting);
    return waiting.finally(() => this.#inflight.delete(waiting));
  }

  async #waitForExit(signals: Readonly<Record<string, number>>): Promise<ShellExit> {
    const status = new Int32Array(1);
    const statusBytes = new Uint8Array(status.buffer);
    for (let failures = 0; failures < MAX_FAILED_WAITS; failures++) {
      // -1 is EINTR on the pool thread (its errno is out of reach): wait again.
      if (await this.#libc.symbols.waitpid(this.pid, statusBytes, 0) === this.pid) {
        return decodeWaitStatus(status[0], signals);
      }
    }
    return { exitCode: null, signal: null };
  }

  #assertOpen(action: string): void {
    if (this.#closed) throw new Error(`Cannot ${action}: the terminal is closed`);
  }
}

function sendToGroup(group: number, signal: string): boolean {
  try {
    Deno.kill(-group, signal as Deno.Signal);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || /ESRCH/.test(String(error))) return false;
    throw error;
  }
}
