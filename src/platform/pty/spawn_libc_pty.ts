import { resolveProgram } from "../find_program.ts";
import { spawnFailure } from "../spawn_failure.ts";
import { cString, pointerArray } from "./c_strings.ts";
import type { Libc } from "./libc.ts";
import { LibcPtyProcess } from "./libc_pty_process.ts";
import type { PtySpawnRequest } from "./types.ts";

/** The terminal type the rendered-screen view emulates; the child's own `TERM` wins. */
export const DEFAULT_TERM = "xterm-256color";

const ENOENT = 2;

/** What a spawn needs beyond the request. */
export interface LibcPtySpawnOptions {
  /** Signal name to number table of this OS. */
  signals: Readonly<Record<string, number>>;
}

/**
 * Opens a pseudo-terminal and starts the program on it with one posix_spawn: the child
 * calls setsid() (POSIX_SPAWN_SETSID), then opens the slave as fd 0, 1 and 2, which makes it
 * the controlling terminal of the new session (the first terminal a session leader opens).
 * No fork of the server, no helper process: the round trip equals a pipe spawn's.
 */
export function spawnLibcPty(
  libc: Libc,
  request: PtySpawnRequest,
  options: LibcPtySpawnOptions,
): LibcPtyProcess {
  const program = request.shell;
  const args = ["-c", request.command];
  const env: Record<string, string> = { TERM: DEFAULT_TERM, ...request.env };
  const resolved = resolveProgram(program, env);
  if (resolved === null) throw new Error(spawnFailure(notFound(), program, request.cwd));
  const master = openMaster(libc, request.cols, request.rows);
  let wake: { read: number; write: number } | null = null;
  try {
    wake = openWakePipe(libc);
    const pid = posixSpawn(libc, {
      path: resolved,
      argv: [program, ...args],
      env,
      cwd: request.cwd,
      slave: slavePath(libc, master),
    });
    return new LibcPtyProcess({
      libc,
      master,
      wakeRead: wake.read,
      wakeWrite: wake.write,
      pid,
      signals: options.signals,
    });
  } catch (error) {
    for (const fd of [master, wake?.read, wake?.write]) {
      if (fd !== undefined) libc.symbols.close(fd);
    }
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(spawnFailure(error, program, request.cwd));
    }
    throw error;
  }
}

/** A non-blocking, close-on-exec master with the slave unlocked, sized and in UTF-8 mode. */
function openMaster(libc: Libc, cols: number, rows: number): number {
  const { abi, symbols } = libc;
  const flags = abi.O_RDWR | abi.O_NOCTTY | abi.O_NONBLOCK | abi.O_CLOEXEC;
  const master = symbols.open(cString("/dev/ptmx", "the path"), flags);
  if (master < 0) {
    throw new Error(
      `Cannot open a pseudo-terminal: open /dev/ptmx failed with errno ${libc.errno()}`,
    );
  }
  try {
    if (symbols.grantpt(master) !== 0 || symbols.unlockpt(master) !== 0) {
      throw new Error(
        `Cannot open a pseudo-terminal: grantpt/unlockpt failed with errno ${libc.errno()}`,
      );
    }
    const size = new Uint8Array(new Uint16Array([rows, cols, 0, 0]).buffer);
    if (libc.ioctl(master, abi.TIOCSWINSZ, size) !== 0) {
      throw new Error(`Cannot size the pseudo-terminal: errno ${libc.errno()}`);
    }
    setUtf8Input(libc, master);
    return master;
  } catch (error) {
    symbols.close(master);
    throw error;
  }
}

/** IUTF8, as terminal emulators set it in a UTF-8 locale: backspace erases whole characters. */
function setUtf8Input(libc: Libc, master: number): void {
  const { abi, symbols } = libc;
  const termios = new Uint8Array(abi.termios.size + 64);
  if (symbols.tcgetattr(master, termios) !== 0) return;
  const view = new DataView(termios.buffer);
  view.setUint32(0, view.getUint32(0, true) | abi.termios.IUTF8, true);
  symbols.tcsetattr(master, abi.TCSANOW, termios);
}

function slavePath(libc: Libc, master: number): string {
  const name = libc.symbols.ptsname(master);
  if (name === null) {
    throw new Error(`Cannot open a pseudo-terminal: ptsname failed with errno ${libc.errno()}`);
  }
  return Deno.UnsafePointerView.getCString(name);
}

/** A close-on-exec pipe whose write end ends the threads waiting on the master. */
function openWakePipe(libc: Libc): { read: number; write: number } {
  const { abi, symbols } = libc;
  const fds = new Int32Array(2);
  const bytes = new Uint8Array(fds.buffer);
  const pipe2 = abi.hasPipe2 ? symbols.pipe2 : null;
  const ok = pipe2 !== null ? pipe2(bytes, abi.O_CLOEXEC) === 0 : symbols.pipe(bytes) === 0 &&
    libc.fcntl(fds[0], abi.F_SETFD, abi.FD_CLOEXEC) === 0 &&
    libc.fcntl(fds[1], abi.F_SETFD, abi.FD_CLOEXEC) === 0;
  if (!ok) throw new Error(`Cannot open the terminal's wake pipe: errno ${libc.errno()}`);
  return { read: fds[0], write: fds[1] };
}

interface Child {
  path: string;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  slave: string;
}

function posixSpawn(libc: Libc, child: Child): number {
  const { symbols } = libc;
  // Opaque objects: glibc keeps them inline (336 and 80 bytes), macOS behind one pointer.
  const attr = new Uint8Array(1024);
  const actions = new Uint8Array(1024);
  const signalSets = { all: new Uint8Array(256), none: new Uint8Array(256) };
  const path = cString(child.path, "the program path");
  const argv = child.argv.map((arg) => cString(arg, "an argument"));
  const envp = Object.entries(child.env).map(([name, value]) =>
    cString(`${name}=${value}`, `environment variable ${name}`)
  );
  const slave = cString(child.slave, "the terminal path");
  const cwd = cString(child.cwd, "the working directory");
  const pid = new Int32Array(1);
  symbols.posix_spawnattr_init(attr);
  symbols.posix_spawn_file_actions_init(actions);
  try {
    setSpawnAttributes(libc, attr, signalSets);
    addFileActions(libc, actions, { cwd, slave });
    const failed = symbols.posix_spawn(
      new Uint8Array(pid.buffer),
      path,
      actions,
      attr,
      pointerArray(argv),
      pointerArray(envp),
    );
    if (failed === ENOENT) throw notFound();
    if (failed !== 0) throw new Error(`Cannot start ${child.path} on a terminal: errno ${failed}`);
    return pid[0];
  } finally {
    symbols.posix_spawn_file_actions_destroy(actions);
    symbols.posix_spawnattr_destroy(attr);
  }
}

/** A new session, default dispositions (the runtime ignores SIGPIPE), an empty mask: a login's. */
function setSpawnAttributes(
  libc: Libc,
  attr: Uint8Array,
  signalSets: { all: Uint8Array; none: Uint8Array },
): void {
  const { abi, symbols } = libc;
  symbols.sigfillset(signalSets.all);
  symbols.sigemptyset(signalSets.none);
  symbols.posix_spawnattr_setsigdefault(attr, signalSets.all);
  symbols.posix_spawnattr_setsigmask(attr, signalSets.none);
  symbols.posix_spawnattr_setflags(
    attr,
    abi.POSIX_SPAWN_SETSID | abi.POSIX_SPAWN_SETSIGDEF | abi.POSIX_SPAWN_SETSIGMASK |
      abi.POSIX_SPAWN_CLOEXEC_DEFAULT,
  );
}

/** The child changes to `cwd` and opens the terminal `slave` as fd 0, 1 and 2, nothing else. */
function addFileActions(
  libc: Libc,
  actions: Uint8Array,
  paths: { cwd: Uint8Array; slave: Uint8Array },
): void {
  const { abi, symbols } = libc;
  const addChdir = symbols.posix_spawn_file_actions_addchdir_np;
  if (addChdir === null) {
    throw new Error(
      "Cannot start a program on a terminal: libc lacks posix_spawn_file_actions_addchdir_np (glibc 2.29 or macOS 10.15 needed)",
    );
  }
  addChdir(actions, paths.cwd);
  symbols.posix_spawn_file_actions_addopen(actions, 0, paths.slave, abi.O_RDWR, 0);
  symbols.posix_spawn_file_actions_adddup2(actions, 0, 1);
  symbols.posix_spawn_file_actions_adddup2(actions, 0, 2);
  // Nothing of the server's (sockets, pipes of other executions) leaks into the child.
  symbols.posix_spawn_file_actions_addclosefrom_np?.(actions, 3);
}

function notFound(): Error {
  return new Deno.errors.NotFound("No such file or directory (os error 2)");
}
