import { closeChild } from "./child.ts";
import { readLines } from "./lines.ts";

const root = new URL("../../", import.meta.url).pathname;
const encoder = new TextEncoder();

/** A running `baseline_child.ts`, started like the server (`deno run -q -P=server`). */
export class BaselineProcess implements AsyncDisposable {
  readonly pid: number;
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #lines: AsyncGenerator<string>;
  #closed: Promise<void> | null = null;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.pid = child.pid;
    this.#writer = child.stdin.getWriter();
    this.#lines = readLines(child.stdout);
  }

  /** Starts the child and waits for its `ready`. */
  static async start(): Promise<BaselineProcess> {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "-P=server", `${root}scripts/bench/baseline_child.ts`],
      cwd: root,
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const process = new BaselineProcess(child);
    try {
      await process.#expect("ready");
    } catch (error) {
      await process.close();
      throw error;
    }
    return process;
  }

  /** Sends one command line and returns the reply line. */
  async send(line: string): Promise<string> {
    await this.#writer.write(encoder.encode(`${line}\n`));
    return await this.#nextLine();
  }

  /** Closes stdin, waits for the exit, and kills the child if it lingers. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      try {
        await closeChild(this.#child, this.#writer, { killAfterMs: 5_000 });
      } finally {
        await this.#lines.return(undefined).catch(() => {});
      }
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #expect(wanted: string): Promise<void> {
    const line = await this.#nextLine();
    if (line !== wanted) throw new Error(`Baseline child said ${line}, expected ${wanted}`);
  }

  async #nextLine(): Promise<string> {
    const { value, done } = await this.#lines.next();
    if (done) throw new Error("Baseline child exited before replying");
    return value;
  }
}
