/**
 * A tiny detached POSIX shell that outlives the server: it keeps the process
 * groups (and containment tokens) of live executions and, when its stdin
 * reaches EOF without them having been released, because the server died
 * abruptly (SIGKILL, a crash, a client that kills it mid-shutdown), sends
 * TERM, waits, then KILL. A graceful exit releases everything first, so the
 * guardian then exits without touching anything.
 */
const GUARDIAN_SCRIPT = String.raw`
trap '' INT TERM HUP PIPE
groups=""
tokens=""
while IFS=' ' read -r op pgid token; do
  case "$op" in
    +) groups="$groups $pgid"; [ -n "$token" ] && tokens="$tokens $token" ;;
    -)
      kept=""; for g in $groups; do [ "$g" = "$pgid" ] || kept="$kept $g"; done; groups=$kept
      kept=""; for t in $tokens; do [ "$t" = "$token" ] || kept="$kept $t"; done; tokens=$kept ;;
  esac
done
[ -z "$groups$tokens" ] && exit 0
holders() {
  [ -n "$tokens" ] || return 0
  ps -e e -ww -o pid=,args= 2>/dev/null | while read -r pid rest; do
    for t in $tokens; do
      case "$rest" in *"=$t"*) echo "$pid" ;; esac
    done
  done
}
for sig in TERM KILL; do
  for g in $groups; do kill -s "$sig" -- "-$g" 2>/dev/null; done
  for p in $(holders); do kill -s "$sig" "$p" 2>/dev/null; done
  [ "$sig" = TERM ] && sleep 2
done
exit 0
`;

const encoder = new TextEncoder();

/** The server side of the guardian; it starts the shell on first use. */
export class Guardian {
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #failed = false;

  /** Asks the guardian to kill this group (and token holders) if the server dies. */
  guard(pgid: number, token: string | null): void {
    this.#send(`+ ${pgid} ${token ?? ""}\n`);
  }

  /** Tells the guardian that nothing of this group lives any more. */
  release(pgid: number, token: string | null): void {
    this.#send(`- ${pgid} ${token ?? ""}\n`);
  }

  #send(line: string): void {
    const writer = this.#start();
    writer?.write(encoder.encode(line)).catch(() => {
      this.#failed = true;
    });
  }

  #start(): WritableStreamDefaultWriter<Uint8Array> | null {
    if (this.#writer !== null || this.#failed) return this.#writer;
    try {
      const child = new Deno.Command("/bin/sh", {
        args: ["-c", GUARDIAN_SCRIPT],
        stdin: "piped",
        stdout: "null",
        stderr: "null",
        // Its own session: a signal to the server's process group does not reach it.
        detached: true,
      }).spawn();
      child.unref();
      child.status.then(() => {
        this.#failed = true;
      });
      this.#writer = child.stdin.getWriter();
    } catch {
      this.#failed = true;
    }
    return this.#writer;
  }
}
