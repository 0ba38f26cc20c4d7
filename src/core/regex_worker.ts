import type { BlockQuery, BlockResult } from "./search_block.ts";

/** How long a new worker may take to load before a search gives up on it. */
const WORKER_START_MS = 30_000;

type Reply = { id: number; result?: BlockResult; error?: string };

/**
 * Runs `matchBlock` in a worker thread, one block at a time, each within a deadline. A block
 * that runs past it (a regular expression that backtracks without end) gets the worker
 * terminated; the next block starts a fresh one.
 */
export class RegexWorker {
  #worker: Promise<Worker> | null = null;
  #replies = new Map<number, (reply: Reply) => void>();
  #nextId = 1;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  /** Matches one block (its bytes are transferred); "timeout" when it ran past `timeoutMs`. */
  run(query: BlockQuery, timeoutMs: number): Promise<BlockResult | "timeout"> {
    const task = this.#queue.then(() => this.#run(query, timeoutMs));
    this.#queue = task.catch(() => {});
    return task;
  }

  /** Terminates the worker; idempotent. */
  close(): void {
    this.#closed = true;
    this.#discard("The search worker was closed");
  }

  async #run(query: BlockQuery, timeoutMs: number): Promise<BlockResult | "timeout"> {
    if (this.#closed) throw new Error("The search worker was closed");
    const worker = await (this.#worker ??= this.#start());
    const id = this.#nextId++;
    const reply = new Promise<Reply>((resolve) => this.#replies.set(id, resolve));
    worker.postMessage({ id, query }, [query.bytes.buffer]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), Math.max(0, timeoutMs));
    });
    try {
      const outcome = await Promise.race([reply, timeout]);
      if (outcome === "timeout") {
        this.#discard("The search ran past its time limit");
        return "timeout";
      }
      if (outcome.error !== undefined) throw new Error(outcome.error);
      return outcome.result!;
    } finally {
      clearTimeout(timer);
      this.#replies.delete(id);
    }
  }

  #start(): Promise<Worker> {
    const worker = new Worker(new URL("./search_worker.ts", import.meta.url).href, {
      type: "module",
    });
    return new Promise<Worker>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#discard("The search worker did not start");
        reject(new Error(`The search worker did not start within ${WORKER_START_MS} ms`));
      }, WORKER_START_MS);
      worker.onmessage = (event: MessageEvent<Reply | "ready">) => {
        const data = event.data;
        if (data === "ready") {
          clearTimeout(timer);
          resolve(worker);
          return;
        }
        this.#replies.get(data.id)?.(data);
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        clearTimeout(timer);
        const message = `The search worker failed: ${event.message}`;
        reject(new Error(message));
        this.#discard(message);
      };
    });
  }

  #discard(reason: string): void {
    const worker = this.#worker;
    this.#worker = null;
    worker?.then((w) => w.terminate(), () => {});
    for (const [id, reply] of this.#replies) reply({ id, error: reason });
    this.#replies.clear();
  }
}
