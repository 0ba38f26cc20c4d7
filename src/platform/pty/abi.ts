/**
 * The C facts a pseudo-terminal needs, per OS: libc's name, flag and errno values, ioctl
 * numbers, the termios layout and posix_spawn flags. Pure data; `src/platform/mod.ts` picks one.
 */
export interface PtyAbi {
  /** What `Deno.dlopen` loads. */
  libraryPath: string;
  /** The libc function that returns the calling thread's `errno` address. */
  errnoFunction: "__errno_location" | "__error";
  /**
   * Integer arguments inserted before the variadic one of `ioctl` and `fcntl`: Apple's arm64
   * ABI passes variadic arguments on the stack, so 6 dummies fill the remaining registers
   * (x2..x7) and the real argument lands where `va_arg` reads it. 0 elsewhere.
   */
  variadicPadding: number;
  /**
   * How a thread waits for the master to become readable: `poll`, or `select` where `poll`
   * does not work on devices (macOS; tmux avoids it there for the same reason).
   */
  readiness: "poll" | "select";
  /** Whether `pipe2(fds, O_CLOEXEC)` exists (else `pipe` then `fcntl(FD_CLOEXEC)`). */
  hasPipe2: boolean;
  O_RDWR: number;
  O_NOCTTY: number;
  O_NONBLOCK: number;
  O_CLOEXEC: number;
  F_SETFD: number;
  FD_CLOEXEC: number;
  EAGAIN: number;
  EINTR: number;
  EIO: number;
  TIOCSWINSZ: bigint;
  /**
   * `struct termios`: its byte size, the offsets of `c_iflag` (always 0) and `c_lflag` (flags
   * are 4 or 8 bytes wide; the bits used here sit in the low 4), and the bits read or set.
   */
  termios: {
    size: number;
    lflagOffset: number;
    ECHO: number;
    ICANON: number;
    IUTF8: number;
  };
  TCSANOW: number;
  POSIX_SPAWN_SETSID: number;
  POSIX_SPAWN_SETSIGDEF: number;
  POSIX_SPAWN_SETSIGMASK: number;
  /** Closes every descriptor not named by a file action (macOS); 0 where absent (Linux uses closefrom). */
  POSIX_SPAWN_CLOEXEC_DEFAULT: number;
}

/** glibc on Linux (x86_64 and aarch64 share these values). */
export const LINUX_PTY_ABI: PtyAbi = {
  libraryPath: "libc.so.6",
  errnoFunction: "__errno_location",
  variadicPadding: 0,
  readiness: "poll",
  hasPipe2: true,
  O_RDWR: 0o2,
  O_NOCTTY: 0o400,
  O_NONBLOCK: 0o4000,
  O_CLOEXEC: 0o2000000,
  F_SETFD: 2,
  FD_CLOEXEC: 1,
  EAGAIN: 11,
  EINTR: 4,
  EIO: 5,
  TIOCSWINSZ: 0x5414n,
  termios: { size: 60, lflagOffset: 12, ECHO: 0o10, ICANON: 0o2, IUTF8: 0o40000 },
  TCSANOW: 0,
  POSIX_SPAWN_SETSID: 0x80,
  POSIX_SPAWN_SETSIGDEF: 0x04,
  POSIX_SPAWN_SETSIGMASK: 0x08,
  POSIX_SPAWN_CLOEXEC_DEFAULT: 0,
};

/** macOS (libSystem); `arm64` selects Apple's variadic calling convention. */
export function darwinPtyAbi(arm64: boolean): PtyAbi {
  return {
    libraryPath: "/usr/lib/libSystem.B.dylib",
    errnoFunction: "__error",
    variadicPadding: arm64 ? 6 : 0,
    readiness: "select",
    hasPipe2: false,
    O_RDWR: 0x2,
    O_NOCTTY: 0x20000,
    O_NONBLOCK: 0x4,
    O_CLOEXEC: 0x1000000,
    F_SETFD: 2,
    FD_CLOEXEC: 1,
    EAGAIN: 35,
    EINTR: 4,
    EIO: 5,
    TIOCSWINSZ: 0x80087467n,
    termios: { size: 72, lflagOffset: 24, ECHO: 0x8, ICANON: 0x100, IUTF8: 0x4000 },
    TCSANOW: 0,
    POSIX_SPAWN_SETSID: 0x400,
    POSIX_SPAWN_SETSIGDEF: 0x04,
    POSIX_SPAWN_SETSIGMASK: 0x08,
    POSIX_SPAWN_CLOEXEC_DEFAULT: 0x4000,
  };
}
