/** A regular expression as it is run (the core's `RegexSpec`). */
export interface WorkerRegexSpec {
  source: string;
  flags: string;
}

/** How one match attempt ended (the core's `RegexOutcome`). */
export type WorkerRegexOutcome =
  | { kind: "match"; index: number; text: string }
  | { kind: "none" }
  | { kind: "timeout"; deadlineMs: number }
  | { kind: "error"; message: string };

/** Options for {@linkcode createRegexRunner}. */
export interface RegexRunnerOptions {
  /** Longest one match attempt may run before the worker is killed. @default 1000 */
  deadlineMs?: number;
  /** An idle worker is ended after this long and started again on demand. @default 30000 */
  idleMs?: number;
}

/** Runs match attempts in a worker thread; resources close idempotently. */
export interface RegexWorkerRunner extends Disposable {
  exec(spec: WorkerRegexSpec, text: string): Promise<WorkerRegexOutcome>;
  /** Starts the worker now, so the first attempt does not wait for it. */
  warm(): void;
  close(): void;
}

/** Default deadline of one match attempt: generous for a loaded machine, short for a human. */
export const REGEX_DEADLINE_MS = 1_000;

interface Job {
  spec: WorkerRegexSpec;
  text: string;
  resolve(outcome: WorkerRegexOutcome): void;
}

/**
 * Runs regular expressions in one worker thread so a catastrophic pattern can be killed: the
 * main thread never runs user patterns against output. Attempts run one at a time in order; one
 * that outlives the deadline terminates the worker (a new one starts for the next attempt).
 */
export function createRegexRunner(options: RegexRunnerOptions = {}): RegexWorkerRunner {
  const { deadlineMs = REGEX_DEADLINE_MS, idleMs = 30_000 } = options;
  const queue: Job[] = [];
  let worker: Worker | null = null;
  /** Ends the attempt in flight, if any. */
  let finishCurrent: ((outcome: WorkerRegexOutcome) => void) | null = null;
  let closed = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;

  const stopWorker = () => {
    worker?.terminate();
    worker = null;
  };
  const armIdleTimer = () => {
    clearTimeout(idleTimer);
    const timer = setTimeout(stopWorker, idleMs);
    // The timer must not keep the process alive (the idle worker itself does until it ends).
    Deno.unrefTimer(timer);
    idleTimer = timer;
  };
  const next = () => {
    if (finishCurrent !== null || closed) return;
    const job = queue.shift();
    if (job === undefined) return armIdleTimer();
    clearTimeout(idleTimer);
    const current = worker ??= startWorker();
    const finish = (outcome: WorkerRegexOutcome) => {
      clearTimeout(deadline);
      current.onmessage = null;
      current.onerror = null;
      finishCurrent = null;
      job.resolve(outcome);
      next();
    };
    finishCurrent = finish;
    const deadline = setTimeout(() => {
      stopWorker();
      finish({ kind: "timeout", deadlineMs });
    }, deadlineMs);
    current.onmessage = (event: MessageEvent<WorkerRegexOutcome>) => finish(event.data);
    current.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      stopWorker();
      finish({ kind: "error", message: event.message });
    };
    current.postMessage({ source: job.spec.source, flags: job.spec.flags, text: job.text });
  };

  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(idleTimer);
    stopWorker();
    finishCurrent?.({ kind: "error", message: "closed" });
    for (const job of queue.splice(0)) job.resolve({ kind: "error", message: "closed" });
  };
  return {
    exec(spec, text) {
      if (closed) return Promise.resolve({ kind: "error", message: "closed" });
      return new Promise((resolve) => {
        queue.push({ spec, text, resolve });
        next();
      });
    },
    warm() {
      if (closed || finishCurrent !== null) return;
      worker ??= startWorker();
      armIdleTimer();
    },
    close,
    [Symbol.dispose]: close,
  };
}

/** The worker's whole program; it runs from a blob URL, so it must not capture anything. */
function workerMain(): void {
  const compiled = new Map<string, RegExp>();
  const scope = self as unknown as {
    onmessage: ((event: MessageEvent) => void) | null;
    postMessage(message: unknown): void;
  };
  scope.onmessage = (event: MessageEvent) => {
    const { source, flags, text } = event.data as { source: string; flags: string; text: string };
    try {
      const key = `${flags}/${source}`;
      let regex = compiled.get(key);
      if (regex === undefined) {
        if (compiled.size >= 64) compiled.clear();
        regex = new RegExp(source, flags);
        compiled.set(key, regex);
      }
      regex.lastIndex = 0;
      const match = regex.exec(text);
      scope.postMessage(
        match === null ? { kind: "none" } : { kind: "match", index: match.index, text: match[0] },
      );
    } catch (error) {
      scope.postMessage({
        kind: "error",
        message: error instanceof Error ? error.message : String(error),
      });
    }
  };
}

/** A blob URL keeps the worker inside `deno compile` binaries without an `--include`. */
function startWorker(): Worker {
  const source = `(${workerMain.toString()})();`;
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    return new Worker(url, { type: "module", name: "yieldshell-regex" });
  } finally {
    URL.revokeObjectURL(url);
  }
}
