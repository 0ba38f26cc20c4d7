import type { RegexOutcome, RegexRunner, RegexSpec } from "./condition_ports.ts";
import type { BlockQuery, BlockResult } from "./search_block.ts";

/** Default deadline of one `until` match attempt: generous for a loaded machine, short for a human. */
export const REGEX_DEADLINE_MS = 1_000;
/** How long a new worker may take to load before its tasks fail. */
const WORKER_START_MS = 30_000;
/**
 * Least time a search block gets, however close the call's deadline: a block of ordinary text
 * takes a few milliseconds, so one that runs this long is a pattern that backtracks without end.
 */
const MIN_BLOCK_MS = 2_000;
const CLOSED = "The regex worker was closed";

/** Options for {@linkcode RegexWorker}. */
export interface RegexWorkerOptions {
  /** Longest one `exec` attempt may run before the worker is terminated. @default 1000 */
  deadlineMs?: number;
  /** An idle worker is ended after this long and started again on demand. @default 30000 */
  idleMs?: number;
}

/** One task as posted to the worker (regex_worker_entry.ts). */
export interface WorkerRequest {
  id: number;
  task:
    | { kind: "exec"; source: string; flags: string; text: string }
    | { kind: "block"; query: BlockQuery };
}

type WorkerReply = { id: number; result?: unknown; error?: string };

/** How a task ended: the worker's answer, its deadline, a failure, or the runner's close. */
type TaskEnd =
  | { kind: "result"; result: unknown }
  | { kind: "timeout" }
  | { kind: "failed"; message: string }
  | { kind: "closed" };

interface Task {
  request: WorkerRequest["task"];
  transfer: Transferable[];
  /** How long the worker may run it, counted from when it is posted. */
  limitMs(): number;
  settle(end: TaskEnd): void;
}

/**
 * Every regular expression the server runs against output (`until` attempts and search blocks)
 * runs here, in one worker thread, so a catastrophic pattern can be killed: the main thread never
 * runs user patterns. Tasks run one at a time in order; one that outlives its deadline terminates
 * the worker and the next task starts a fresh one. The thread starts on first use (or `warm`),
 * an idle one ends after `idleMs`, and `close` ends it for good; a task's deadline counts from
 * when the worker is up, not the start of a thread on a busy machine.
 */
export class RegexWorker implements RegexRunner, Disposable {
  #deadlineMs: number;
  #idleMs: number;
  #worker: Worker | null = null;
  #starting: Worker | null = null;
  #queue: Task[] = [];
  #current: { id: number; task: Task; timer: ReturnType<typeof setTimeout> } | null = null;
  #nextId = 1;
  #closed = false;
  #readyWaiters: (() => void)[] = [];
  #idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: RegexWorkerOptions = {}) {
    const { deadlineMs = REGEX_DEADLINE_MS, idleMs = 30_000 } = options;
    this.#deadlineMs = deadlineMs;
    this.#idleMs = idleMs;
  }

  /** The first match of `spec` in `text`, within the deadline; never rejects. */
  exec(spec: RegexSpec, text: string): Promise<RegexOutcome> {
    if (this.#closed) return Promise.resolve({ kind: "error", message: "closed" });
    const deadlineMs = this.#deadlineMs;
    return new Promise((resolve) =>
      this.#enqueue({
        request: { kind: "exec", source: spec.source, flags: spec.flags, text },
        transfer: [],
        limitMs: () => deadlineMs,
        settle: (end) => resolve(execOutcome(end, deadlineMs)),
      })
    );
  }

  /**
   * Matches one search block (its bytes are transferred); "timeout" when it ran past `deadline`
   * (a `performance.now()` time), or past two seconds if the deadline is nearer.
   */
  matchBlock(query: BlockQuery, deadline: number): Promise<BlockResult | "timeout"> {
    if (this.#closed) return Promise.reject(new Error(CLOSED));
    return new Promise((resolve, reject) =>
      this.#enqueue({
        request: { kind: "block", query },
        transfer: [query.bytes.buffer],
        limitMs: () => Math.max(MIN_BLOCK_MS, deadline - performance.now()),
        settle: (end) => {
          if (end.kind === "result") resolve(end.result as BlockResult);
          else if (end.kind === "timeout") resolve("timeout");
          else reject(new Error(end.kind === "closed" ? CLOSED : end.message));
        },
      })
    );
  }

  /** Settles once the thread is up (starting it if needed), or has failed to start. */
  ready(): Promise<void> {
    if (this.#worker !== null || this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.#readyWaiters.push(resolve);
      this.#start();
    });
  }

  /** Starts the thread now, so the first attempt does not wait for it. */
  warm(): void {
    if (!this.#closed) this.#start();
  }

  /** Terminates the thread (if started) and ends pending tasks; idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#starting?.terminate();
    this.#starting = null;
    this.#stopWorker();
    const current = this.#current;
    this.#current = null;
    if (current !== null) {
      clearTimeout(current.timer);
      current.task.settle({ kind: "closed" });
    }
    for (const task of this.#queue.splice(0)) task.settle({ kind: "closed" });
    this.#wakeWaiters();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  #enqueue(task: Task): void {
    this.#queue.push(task);
    this.#next();
  }

  /** Posts the next task once the worker is up and idle; an idle worker gets its idle timer. */
  #next(): void {
    if (this.#current !== null || this.#closed) return;
    clearTimeout(this.#idleTimer);
    const worker = this.#worker;
    if (this.#queue.length === 0) {
      if (worker !== null) this.#idleTimer = setTimeout(() => this.#stopWorker(), this.#idleMs);
      return;
    }
    if (worker === null) return this.#start();
    const task = this.#queue.shift()!;
    const id = this.#nextId++;
    worker.postMessage({ id, task: task.request } satisfies WorkerRequest, task.transfer);
    const timer = setTimeout(() => this.#finish({ kind: "timeout" }), task.limitMs());
    this.#current = { id, task, timer };
  }

  /** Ends the task in flight; a timeout or a failure takes the worker with it. */
  #finish(end: TaskEnd): void {
    const current = this.#current;
    if (current === null) return;
    clearTimeout(current.timer);
    this.#current = null;
    if (end.kind !== "result") this.#stopWorker();
    current.task.settle(end);
    this.#next();
  }

  #reply(reply: WorkerReply): void {
    if (this.#current?.id !== reply.id) return;
    this.#finish(
      reply.error === undefined
        ? { kind: "result", result: reply.result }
        : { kind: "failed", message: reply.error },
    );
  }

  #start(): void {
    if (this.#starting !== null || this.#worker !== null) return;
    const worker = new Worker(new URL("./regex_worker_entry.ts", import.meta.url).href, {
      type: "module",
      name: "yieldshell-regex",
    });
    this.#starting = worker;
    const timer = setTimeout(() => {
      this.#failStart(worker, `The regex worker did not start within ${WORKER_START_MS} ms`);
    }, WORKER_START_MS);
    worker.onmessage = (event: MessageEvent<WorkerReply | "ready">) => {
      if (event.data !== "ready") return this.#reply(event.data);
      clearTimeout(timer);
      this.#starting = null;
      this.#worker = worker;
      this.#wakeWaiters();
      this.#next();
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      clearTimeout(timer);
      const message = `The regex worker failed: ${event.message}`;
      if (this.#starting === worker) return this.#failStart(worker, message);
      if (this.#worker !== worker) return;
      this.#stopWorker();
      this.#finish({ kind: "failed", message });
    };
    // Asked, not announced: the worker's own first message, posted as its module loaded, was
    // sometimes never delivered (about 1 start in 4 with tests running in parallel); an answer
    // to a message is.
    worker.postMessage("ping");
  }

  /** A worker that did not come up: every queued task fails with `message`. */
  #failStart(worker: Worker, message: string): void {
    worker.terminate();
    if (this.#starting !== worker) return;
    this.#starting = null;
    for (const task of this.#queue.splice(0)) task.settle({ kind: "failed", message });
    this.#wakeWaiters();
  }

  #stopWorker(): void {
    clearTimeout(this.#idleTimer);
    this.#worker?.terminate();
    this.#worker = null;
  }

  #wakeWaiters(): void {
    for (const wake of this.#readyWaiters.splice(0)) wake();
  }
}

/** What an `exec` caller is told of how its attempt ended. */
function execOutcome(end: TaskEnd, deadlineMs: number): RegexOutcome {
  switch (end.kind) {
    case "result":
      return end.result as RegexOutcome;
    case "timeout":
      return { kind: "timeout", deadlineMs };
    case "failed":
      return { kind: "error", message: end.message };
    case "closed":
      return { kind: "error", message: "closed" };
  }
}
