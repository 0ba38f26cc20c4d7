/**
 * Entry of the regex worker: runs `RegexWorker`'s tasks (one `until` match attempt, or one block
 * of a search) in a thread the server terminates when a regular expression runs past its deadline
 * (catastrophic backtracking cannot be interrupted on the main thread). It answers the server's
 * `ping` with `ready`.
 */
import { errorText } from "../contract/error_text.ts";
import type { RegexOutcome } from "./condition_ports.ts";
import type { WorkerRequest } from "./regex_worker.ts";
import { matchBlock } from "./search_block.ts";

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest | "ping">) => void) | null;
  postMessage(message: unknown): void;
}

/** Most compiled `until` patterns kept for the next attempts. */
const MAX_COMPILED = 64;
const compiled = new Map<string, RegExp>();

/** The first match of `source` in `text`; a pattern that does not compile is an error outcome. */
function firstMatch(source: string, flags: string, text: string): RegexOutcome {
  try {
    const key = `${flags}/${source}`;
    let regex = compiled.get(key);
    if (regex === undefined) {
      if (compiled.size >= MAX_COMPILED) compiled.clear();
      regex = new RegExp(source, flags);
      compiled.set(key, regex);
    }
    regex.lastIndex = 0;
    const match = regex.exec(text);
    return match === null
      ? { kind: "none" }
      : { kind: "match", index: match.index, text: match[0] };
  } catch (error) {
    return { kind: "error", message: errorText(error) };
  }
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = (event) => {
  if (event.data === "ping") return scope.postMessage("ready");
  const { id, task } = event.data;
  try {
    const result = task.kind === "exec"
      ? firstMatch(task.source, task.flags, task.text)
      : matchBlock(task.query);
    scope.postMessage({ id, result });
  } catch (error) {
    scope.postMessage({ id, error: errorText(error) });
  }
};
