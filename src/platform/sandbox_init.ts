import { PIN_FUNCTION } from "./cwd_pin.ts";

/**
 * Signals a stop may send that the sandbox forwards to everything inside it, and that bwrap
 * itself ignores under a `caller` session (never CHLD, KILL, STOP, CONT).
 */
export const SHIELDED_SIGNALS = [
  "HUP",
  "INT",
  "QUIT",
  "TRAP",
  "ABRT",
  "USR1",
  "USR2",
  "PIPE",
  "ALRM",
  "TERM",
  "TSTP",
  "TTIN",
  "TTOU",
  "XCPU",
  "XFSZ",
  "VTALRM",
  "PROF",
  "IO",
  "PWR",
  "SYS",
] as const;

/** How the host side starts bubblewrap (`$0` is bwrap, `$1` the checked cwd). */
export interface LaunchOptions {
  /** Ignore the shielded signals, so bwrap outlives a stop and reports the command's exit. */
  shield: boolean;
  /** Open the checked cwd as fd 3, for `--bind-fd 3` (a bind that no path swap can redirect). */
  openCwd: boolean;
}

/** The host-side launcher of bubblewrap: signal shield, cwd pin, cwd fd, then exec bwrap. */
export function launchScript(options: LaunchOptions): string {
  return [
    ...(options.shield ? [`trap '' ${SHIELDED_SIGNALS.join(" ")}`] : []),
    PIN_FUNCTION,
    'pin "$1"',
    ...(options.openCwd ? ["exec 3<."] : []),
    "shift",
    'exec "$0" "$@"',
  ].join("; ");
}

/**
 * The sandbox's init, the first process under bubblewrap's PID 1 (whose exit ends the PID
 * namespace and kills whatever is left), run as `sh -c SANDBOX_INIT name CWD ENV SHELL ARGS...`
 * (ENV: a coreutils `env` with `--default-signal`, or empty). It closes the launcher's cwd fd,
 * forwards every stop signal to the processes inside that left the command's process group
 * (re-sessioned daemons: the group itself gets it from the host, and only once), checks it stands
 * in CWD, runs the shell as a job with the real stdin and default signal dispositions (a job of a
 * non-interactive shell would ignore INT and QUIT), waits for it, then waits until no other
 * process is left in the PID namespace, so background processes keep the execution running as
 * they do outside, and exits with the shell's status (128+N for a death by signal N). A stop that
 * arrives before its traps are set kills it, and with it the sandbox, as it would kill a shell.
 * Its own messages ("Terminated") go nowhere; polls back off from 20 ms to 1 s.
 */
export const SANDBOX_INIT = [
  "exec 3<&-",
  // Our process group (as this namespace numbers it); its members get the stop from the host.
  "grp() { read -r st < /proc/$$/stat; set -- ${st##*) }; g=$3; }; grp",
  'fwd() { s=$1; for p in /proc/[0-9]*; do n=${p#/proc/}; [ "$n" = "$$" ] && continue; ' +
  'read -r st 2>/dev/null < "$p/stat" || continue; set -- ${st##*) }; ' +
  '[ "$3" = "$g" ] || kill -s "$s" "$n" 2>/dev/null; done; }',
  `for s in ${SHIELDED_SIGNALS.join(" ")}; do trap "fwd $s" "$s"; done`,
  PIN_FUNCTION,
  'pin "$1"',
  "e=$2; shift 2; exec 5<&0",
  'if [ -n "$e" ]; then "$e" --default-signal "$@" <&5 5<&- & else "$@" <&5 5<&- & fi',
  "child=$!; exec 0</dev/null 5<&-",
  // A trapped signal interrupts `wait` (128+N): wait again while the shell lives, and once more
  // when it ended meanwhile, as the shell keeps its status until a wait reports it (else 127).
  'while :; do wait "$child" 2>/dev/null; status=$?; kill -0 "$child" 2>/dev/null && continue; ' +
  '[ "$status" -gt 128 ] && { wait "$child" 2>/dev/null; r=$?; [ "$r" = 127 ] || status=$r; }; ' +
  "break; done",
  "delay=0.02",
  "while :; do busy=; for p in /proc/[0-9]*; do n=${p#/proc/}; " +
  '{ [ "$n" = 1 ] || [ "$n" = "$$" ]; } && continue; ' +
  'read -r stat 2>/dev/null < "$p/stat" || continue; ' +
  'case ${stat##*) } in Z*|X*) continue ;; esac; busy=1; break; done; [ -z "$busy" ] && break; ' +
  "sleep $delay; " +
  "case $delay in 0.02) delay=0.05 ;; 0.05) delay=0.1 ;; 0.1) delay=0.25 ;; 0.25) delay=0.5 ;; " +
  "*) delay=1 ;; esac; done",
  'exit "$status"',
].join("\n");
