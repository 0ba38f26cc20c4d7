import type { PtyAbi } from "./abi.ts";

/** The libc symbols the terminal backend calls, shaped for this OS's ABI. */
function symbolsFor(abi: PtyAbi) {
  const padding = Array<"u64">(abi.variadicPadding).fill("u64");
  return {
    open: { parameters: ["buffer", "i32"], result: "i32" },
    grantpt: { parameters: ["i32"], result: "i32" },
    unlockpt: { parameters: ["i32"], result: "i32" },
    ptsname: { parameters: ["i32"], result: "pointer" },
    ioctl: { parameters: ["i32", "u64", ...padding, "buffer"], result: "i32" },
    fcntl: { parameters: ["i32", "i32", ...padding, "i64"], result: "i32" },
    read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
    write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
    close: { parameters: ["i32"], result: "i32" },
    pipe: { parameters: ["buffer"], result: "i32" },
    pipe2: { parameters: ["buffer", "i32"], result: "i32", optional: true },
    poll: { parameters: ["buffer", "u64", "i32"], result: "i32", nonblocking: true },
    select: {
      parameters: ["i32", "buffer", "buffer", "buffer", "buffer"],
      result: "i32",
      nonblocking: true,
    },
    tcgetattr: { parameters: ["i32", "buffer"], result: "i32" },
    tcsetattr: { parameters: ["i32", "i32", "buffer"], result: "i32" },
    tcgetpgrp: { parameters: ["i32"], result: "i32" },
    waitpid: { parameters: ["i32", "buffer", "i32"], result: "i32", nonblocking: true },
    posix_spawn: {
      parameters: ["buffer", "buffer", "buffer", "buffer", "buffer", "buffer"],
      result: "i32",
    },
    posix_spawnattr_init: { parameters: ["buffer"], result: "i32" },
    posix_spawnattr_destroy: { parameters: ["buffer"], result: "i32" },
    posix_spawnattr_setflags: { parameters: ["buffer", "i16"], result: "i32" },
    posix_spawnattr_setsigdefault: { parameters: ["buffer", "buffer"], result: "i32" },
    posix_spawnattr_setsigmask: { parameters: ["buffer", "buffer"], result: "i32" },
    posix_spawn_file_actions_init: { parameters: ["buffer"], result: "i32" },
    posix_spawn_file_actions_destroy: { parameters: ["buffer"], result: "i32" },
    posix_spawn_file_actions_addopen: {
      parameters: ["buffer", "i32", "buffer", "i32", "u32"],
      result: "i32",
    },
    posix_spawn_file_actions_adddup2: { parameters: ["buffer", "i32", "i32"], result: "i32" },
    posix_spawn_file_actions_addchdir_np: {
      parameters: ["buffer", "buffer"],
      result: "i32",
      optional: true,
    },
    posix_spawn_file_actions_addclosefrom_np: {
      parameters: ["buffer", "i32"],
      result: "i32",
      optional: true,
    },
    sigfillset: { parameters: ["buffer"], result: "i32" },
    sigemptyset: { parameters: ["buffer"], result: "i32" },
    [abi.errnoFunction]: { parameters: [], result: "pointer" },
  } as const satisfies Deno.ForeignLibraryInterface;
}

type Symbols = Deno.DynamicLibrary<ReturnType<typeof symbolsFor>>["symbols"];

/** libc opened through FFI, with the few calls the terminal backend makes. */
export class Libc {
  readonly abi: PtyAbi;
  readonly symbols: Symbols;
  #padding: bigint[];

  constructor(abi: PtyAbi) {
    this.abi = abi;
    this.symbols = Deno.dlopen(abi.libraryPath, symbolsFor(abi)).symbols;
    this.#padding = Array<bigint>(abi.variadicPadding).fill(0n);
  }

  /** The calling thread's errno; read it right after the failing call, on the same thread. */
  errno(): number {
    const where = (this.symbols as unknown as Record<string, () => Deno.PointerValue>)[
      this.abi.errnoFunction
    ]();
    return where === null ? 0 : new Deno.UnsafePointerView(where).getInt32();
  }

  /** `ioctl(fd, request, argument)` through the variadic convention of this ABI. */
  ioctl(fd: number, request: bigint, argument: Uint8Array): number {
    const call = this.symbols.ioctl as unknown as (...args: unknown[]) => number;
    return call(fd, request, ...this.#padding, argument);
  }

  /** `fcntl(fd, command, argument)` through the variadic convention of this ABI. */
  fcntl(fd: number, command: number, argument: number): number {
    const call = this.symbols.fcntl as unknown as (...args: unknown[]) => number;
    return call(fd, command, ...this.#padding, BigInt(argument));
  }
}
