import type { WrapperSpec } from "./wrapper_spec.ts";

/** Names given as one space-separated string, to keep the tables short. */
function words(text: string): string[] {
  return text.split(" ");
}

/**
 * Programs that exec their operands as a command, with every option their manuals document
 * (util-linux 2.38, glibc 2.36, coreutils 9.1 and the programs' own pages): an option that
 * is not listed makes the command unknown, since its value could be the command.
 */

/** `--help` and `--version`: print and exit. */
const HELP = "-h -V --help --version";

/** setarch's options, and those of its aliases (`linux32`, `x86_64`...). */
const PERSONALITY = {
  short: "BFILRSTXZ3vhV",
  long: words(
    "32bit fdpic-funcptrs short-inode addr-compat-layout addr-no-randomize whole-seconds sticky-timeouts read-implies-exec mmap-page-zero 3gb 4gb uname-2.6 verbose list show help version",
  ),
};

const SETARCH_ALIAS: WrapperSpec = {
  flags: PERSONALITY,
  queries: `--list --show ${HELP}`,
  bareShell: true,
};

/** Exec wrappers by lower-case basename. */
export const EXEC_WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  unshare: {
    short: "SGRw",
    attached: "muinpUCT",
    long: words(
      "map-user map-group map-users map-groups propagation setgroups root wd setuid setgid monotonic boottime",
    ),
    flags: {
      short: "frchV",
      long: words(
        "mount uts ipc net pid user cgroup time fork map-root-user map-current-user map-auto kill-child mount-proc keep-caps help version",
      ),
    },
    queries: HELP,
    bareShell: true,
  },
  nsenter: {
    short: "tSGW",
    attached: "muinpCUTrw",
    long: words("target setuid setgid wdns"),
    flags: {
      short: "aFZhVe",
      long: words(
        "all mount uts ipc net pid cgroup user time preserve-credentials root wd no-fork follow-context user-parent keep-caps env help version",
      ),
    },
    queries: HELP,
    bareShell: true,
  },
  prlimit: {
    short: "po",
    attached: "cdefilmnqrstuvxy",
    long: words("pid output"),
    flags: {
      short: "hV",
      long: words(
        "noheadings raw verbose help version core data nice fsize sigpending memlock rss nofile msgqueue rtprio stack cpu nproc as locks rttime",
      ),
    },
    queries: `-p --pid ${HELP}`,
  },
  setpriv: {
    long: words(
      "ambient-caps inh-caps bounding-set ruid euid rgid egid reuid regid groups securebits pdeathsig selinux-label apparmor-profile landlock-access landlock-rule seccomp-filter",
    ),
    flags: {
      short: "dhV",
      long: words(
        "dump nnp no-new-privs clear-groups keep-groups init-groups reset-env help version",
      ),
    },
    queries: `-d --dump ${HELP}`,
  },
  setarch: { ...SETARCH_ALIAS, leading: 1 },
  linux32: SETARCH_ALIAS,
  linux64: SETARCH_ALIAS,
  i386: SETARCH_ALIAS,
  x86_64: SETARCH_ALIAS,
  uname26: SETARCH_ALIAS,
  runcon: {
    short: "turl",
    long: words("type user role range"),
    flags: { short: "c", long: words("compute help version") },
    queries: "--help --version",
    operandsWithoutOptions: 1,
  },
  faketime: {
    short: "p",
    long: words("date-prog"),
    flags: { short: "fm", long: words("exclude-monotonic help version") },
    refuses: { "--date-prog": "names a program to run" },
    queries: "--help --version",
    operands: 1,
  },
  fakeroot: {
    short: "lisb",
    long: words("lib faked fd-base"),
    flags: { short: "uhv", long: words("unknown-is-real help version") },
    refuses: { "-l": "loads a library", "--lib": "loads a library", "--faked": "names a program" },
    queries: "-h -v --help --version",
    bareShell: true,
  },
  eatmydata: { flags: { short: "", long: words("help version") }, queries: "--help --version" },
  catchsegv: { flags: { short: "", long: words("help version") }, queries: "--help --version" },
  chronic: { flags: { short: "ev", long: [] } },
  ifne: { flags: { short: "n", long: [] } },
  cgexec: { short: "g", flags: { short: "h", long: words("sticky") }, queries: "-h" },
  trickle: { short: "duwtln", flags: { short: "hvVs", long: [] }, queries: "-h -V" },
  proxychains: { short: "f", flags: { short: "q", long: [] } },
  proxychains4: { short: "f", flags: { short: "q", long: [] } },
  "ssh-agent": { short: "aEOPt", flags: { short: "csDdk", long: [] }, queries: "-k" },
  "xvfb-run": {
    short: "efnpsw",
    long: words("error-file auth-file server-num xauth-protocol server-args wait"),
    flags: { short: "alh", long: words("auto-servernum listen-tcp help") },
    queries: "-h --help",
  },
  "dbus-run-session": {
    long: words("config-file dbus-daemon"),
    flags: { short: "", long: words("help version") },
    queries: "--help --version",
  },
  numactl: {
    short: "ipPCNmSfILoM",
    long: words(
      "interleave preferred preferred-many physcpubind cpunodebind membind shm file shmid length offset shmmode",
    ),
    flags: {
      short: "labutHsdDVh",
      long: words(
        "localalloc all balancing huge touch hardware show dump dump-nodes strict version help",
      ),
    },
    queries: "-H -s -V --hardware --show --version --help",
  },
  // Options as `--name=value` only, so the first other word is the program.
  valgrind: {},
  newgrp: { operands: 1, bareShell: true },
};

/** The dynamic loader: `ld.so`, `ld-linux-x86-64.so.2`, `ld-musl-x86_64.so.1`... */
const LOADER: WrapperSpec = {
  long: words(
    "library-path inhibit-rpath audit preload argv0 glibc-hwcaps-prepend glibc-hwcaps-mask",
  ),
  flags: {
    short: "",
    long: words("list verify inhibit-cache list-tunables list-diagnostics help version"),
  },
  refuses: {
    "--audit": "makes the dynamic loader load code",
    "--preload": "makes the dynamic loader load code",
    "--library-path": "makes the dynamic loader load libraries from other directories",
  },
  queries: "--list --verify --list-tunables --list-diagnostics --help --version",
};

/** The loader spec when `base` names the dynamic loader. */
export function loaderSpec(base: string): WrapperSpec | undefined {
  return /^ld(-linux[\w.-]*|-musl[\w.-]*)?\.so(\.\d+)*$/.test(base) ? LOADER : undefined;
}
