import type { BlockQuery, BlockResult } from "./search_block.ts";

/** How long a new worker may take to load before its tasks fail. */
const WORKER_START_MS = 30_000;
/**
 * Least time a block gets, however close the deadline: a block of ordinary text takes a few
 * milliseconds, so one that runs this long is a pattern that backtracks without end.
 */
const MIN_BLOCK_MS = 2_000;

type Reply = { id: number; result?: BlockResult; error?: string };

interface Task {
  query: BlockQuery;
  /** `performance.now()` by which the block must be matched. */
  deadline: number;
  resolve: (result: BlockResult | "timeout") => void;
  reject: (error: Error) => void;
}

/**
 * Runs `matchBlock` in a worker thread, one block at a time, each within a deadline. A block
 * that runs past it (a regular expression that backtracks without end) gets the worker
 * terminated; the next block starts a fresh one. A block is posted at once when the worker is
 * idle, so the caller can read the next block while this one is matched.
 */
export class RegexWorker {
  #worker: Worker | null = null;
  #starting = false;
  #tasks: Task[] = [];
  #current: { id: number; task: Task; timer: ReturnType<typeof setTimeout> } | null = null;
  #nextId = 1;
  #closed = false;
  #readyWaiters: (() => void)[] = [];

  /**
   * Settles once a worker thread is up (starting one if needed), or has failed to start: a
   * call's time limit counts matching, not the start of a thread on a busy machine.
   */
  ready(): Promise<void> {
    if (this.#worker !== null || this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.#readyWaiters.push(resolve);
      this.#start();
    });
  }

  /**
   * Matches one block (its bytes are transferred); "timeout" when it ran past `deadline` (or
   * past two seconds, if the deadline is nearer).
   */
  run(query: BlockQuery, deadline: number): Promise<BlockResult | "timeout"> {
    if (this.#closed) return Promise.reject(new Error("The search worker was closed"));
    return new Promise((resolve, reject) => {
      this.#tasks.push({ query, deadline, resolve, reject });
      this.#next();
    });
  }

  /** Terminates the worker and fails pending blocks; idempotent. */
  close(): void {
    this.#closed = true;
    this.#discard(new Error("The search worker was closed"));
  }

  #next(): void {
    if (this.#current !== null || this.#tasks.length === 0) return;
    const worker = this.#worker;
    if (worker === null) {
      this.#start();
      return;
    }
    const task = this.#tasks.shift()!;
    const id = this.#nextId++;
    worker.postMessage({ id, query: task.query }, [task.query.bytes.buffer]);
    const timer = setTimeout(() => {
      this.#current = null;
      task.resolve("timeout");
      this.#discard(null);
      this.#next();
    }, Math.max(MIN_BLOCK_MS, task.deadline - performance.now()));
    this.#current = { id, task, timer };
  }

  #reply(reply: Reply): void {
    const current = this.#current;
    if (current === null || current.id !== reply.id) return;
    clearTimeout(current.timer);
    this.#current = null;
    if (reply.error !== undefined) current.task.reject(new Error(reply.error));
    else current.task.resolve(reply.result!);
    this.#next();
  }

  #start(): void {
    if (this.#starting) return;
    this.#starting = true;
    const worker = new Worker(new URL("./search_worker.ts", import.meta.url).href, {
      type: "module",
    });
    const timer = setTimeout(() => {
      this.#discard(new Error(`The search worker did not start within ${WORKER_START_MS} ms`));
      worker.terminate();
    }, WORKER_START_MS);
    worker.onmessage = (event: MessageEvent<Reply | "ready">) => {
      if (event.data !== "ready") return this.#reply(event.data);
      clearTimeout(timer);
      this.#starting = false;
      this.#worker = worker;
      this.#wakeWaiters();
      this.#next();
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      clearTimeout(timer);
      worker.terminate();
      this.#discard(new Error(`The search worker failed: ${event.message}`));
    };
  }

  #wakeWaiters(): void {
    for (const wake of this.#readyWaiters.splice(0)) wake();
  }

  /** Drops the worker; with an error, pending blocks fail with it. */
  #discard(error: Error | null): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#starting = false;
    const current = this.#current;
    this.#current = null;
    if (current !== null) {
      clearTimeout(current.timer);
      if (error !== null) current.task.reject(error);
    }
    if (error !== null) {
      for (const task of this.#tasks.splice(0)) task.reject(error);
      this.#wakeWaiters();
    }
  }
}
