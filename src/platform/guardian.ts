/**
 * A tiny detached POSIX shell that outlives the server: it keeps the process
 * groups (and containment tokens) of live executions and, when its stdin
 * reaches EOF without them having been released, because the server died
 * abruptly (SIGKILL, a crash, a client that kills it mid-shutdown), sends
 * TERM, waits, then KILL. A graceful exit releases everything first, so the
 * guardian then exits without touching anything.
 *
 * It also answers token scans (`? TOKEN...`): one `grep` over
 * /proc/[0-9]*\/environ from an already running shell costs a few
 * milliseconds, where spawning `ps` from Deno costs ten or more, and Deno's
 * permissions forbid reading /proc from the server itself. Zombies have an
 * empty environ, so they never match.
 */
const GUARDIAN_SCRIPT = String.raw`
trap '' INT TERM HUP PIPE
groups=""
tokens=""
while IFS=' ' read -r op pgid token; do
  case "$op" in
    +) groups="$groups $pgid"; [ -n "$token" ] && tokens="$tokens $token" ;;
    g) kept=""; for g in $groups; do [ "$g" = "$pgid" ] || kept="$kept $g"; done; groups=$kept ;;
    t) kept=""; for t in $tokens; do [ "$t" = "$pgid" ] || kept="$kept $t"; done; tokens=$kept ;;
    '?')
      set --
      for t in $pgid $token; do set -- "$@" -e "_MCP_YIELDSHELL_EXECUTION_TOKEN=$t"; done
      grep -a -o -F "$@" /proc/[0-9]*/environ 2>/dev/null
      echo . ;;
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
const MATCH = /^\/proc\/(\d+)\/environ:_MCP_YIELDSHELL_EXECUTION_TOKEN=(\w+)$/;

/** The server side of the guardian; it starts the shell on first use. */
export class Guardian {
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #child: Deno.ChildProcess | null = null;
  #failed = false;
  /** Answers in request order: each collects lines until ".". */
  #replies: { lines: string[]; resolve: (lines: string[] | null) => void }[] = [];
  #queued = new Set<string>();
  /** The batch that tokens queued now will be part of; null once it has taken its tokens. */
  #next: Promise<Map<string, number[]> | null> | null = null;
  /** The newest batch; a new one starts only after it, so greps never overlap. */
  #tail: Promise<unknown> = Promise.resolve();
  /** Release lines not yet written: they go out with the next line, or after this tick. */
  #releases = "";

  /**
   * Pids whose environment carries each token; null when the guardian cannot
   * answer (the caller falls back to `ps`). Concurrent calls share one grep.
   */
  scan(tokens: readonly string[]): Promise<Map<string, number[]> | null> {
    for (const token of tokens) this.#queued.add(token);
    if (this.#next === null) {
      this.#next = this.#after(this.#tail);
      this.#tail = this.#next;
    }
    return this.#next;
  }

  async #after(previous: Promise<unknown>): Promise<Map<string, number[]> | null> {
    // Always suspends first, so #next is assigned before it is cleared here.
    await previous.catch(() => {});
    this.#next = null;
    return await this.#runBatch();
  }

  async #runBatch(): Promise<Map<string, number[]> | null> {
    const tokens = [...this.#queued];
    this.#queued.clear();
    if (tokens.length === 0) return new Map();
    const { promise, resolve } = Promise.withResolvers<string[] | null>();
    this.#replies.push({ lines: [], resolve });
    if (!this.#send(`? ${tokens.join(" ")}\n`)) {
      this.#replies.pop();
      return null;
    }
    // An answer awaited keeps the process alive; the idle guardian does not (it is unref'd).
    this.#child?.ref();
    const lines = await promise;
    if (lines === null) return null;
    const found = new Map<string, number[]>();
    for (const line of lines) {
      const match = MATCH.exec(line);
      if (match === null) continue;
      const pids = found.get(match[2]) ?? [];
      pids.push(Number(match[1]));
      found.set(match[2], pids);
    }
    return found;
  }

  /** Asks the guardian to kill this group (and token holders) if the server dies. */
  guard(pgid: number, token: string | null): void {
    this.#send(`+ ${pgid} ${token ?? ""}\n`);
  }

  /** The group is gone; its pgid may be reused, so the guardian must forget it. */
  releaseGroup(pgid: number): void {
    this.#release(`g ${pgid}\n`);
  }

  /** The record is gone; its token is no longer the server's to contain. */
  releaseToken(token: string): void {
    this.#release(`t ${token}\n`);
  }

  /**
   * A release happens as an execution ends, just before its answer: written after the
   * current tick (or with the next line), it costs that answer nothing.
   */
  #release(line: string): void {
    if (this.#writer === null) return;
    if (this.#releases === "") setTimeout(() => this.#send(""), 0);
    this.#releases += line;
  }

  #send(line: string): boolean {
    const writer = this.#start();
    if (writer === null) return false;
    const text = this.#releases + line;
    this.#releases = "";
    if (text !== "") writer.write(encoder.encode(text)).catch(() => this.#fail());
    return true;
  }

  #fail(): void {
    this.#failed = true;
    for (const reply of this.#replies.splice(0)) reply.resolve(null);
  }

  async #readReplies(stdout: ReadableStream<Uint8Array>): Promise<void> {
    let pending = "";
    try {
      for await (const text of stdout.pipeThrough(new TextDecoderStream())) {
        pending += text;
        let newline;
        while ((newline = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, newline);
          pending = pending.slice(newline + 1);
          const reply = this.#replies[0];
          if (reply === undefined) continue;
          if (line === ".") {
            this.#replies.shift();
            if (this.#replies.length === 0) this.#child?.unref();
            reply.resolve(reply.lines);
          } else {
            reply.lines.push(line);
          }
        }
      }
    } catch {
      // The guardian is gone; pending scans fall back to ps.
    }
    this.#fail();
  }

  #start(): WritableStreamDefaultWriter<Uint8Array> | null {
    if (this.#writer !== null || this.#failed) return this.#writer;
    try {
      const child = new Deno.Command("/bin/sh", {
        args: ["-c", GUARDIAN_SCRIPT],
        stdin: "piped",
        stdout: "piped",
        stderr: "null",
        // Its own session: a signal to the server's process group does not reach it.
        detached: true,
      }).spawn();
      child.unref();
      this.#child = child;
      this.#writer = child.stdin.getWriter();
      this.#readReplies(child.stdout);
    } catch {
      this.#failed = true;
    }
    return this.#writer;
  }
}
