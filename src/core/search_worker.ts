/**
 * Entry of the search worker: matches blocks for `RegexWorker` in a thread the server
 * terminates when a regular expression runs past its deadline (catastrophic backtracking
 * cannot be interrupted on the main thread). It posts `ready` once loaded.
 */
import { errorText } from "../contract/error_text.ts";
import { type BlockQuery, matchBlock } from "./search_block.ts";

interface WorkerScope {
  onmessage: ((event: MessageEvent<{ id: number; query: BlockQuery }>) => void) | null;
  postMessage(message: unknown): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = (event) => {
  const { id, query } = event.data;
  try {
    scope.postMessage({ id, result: matchBlock(query) });
  } catch (error) {
    scope.postMessage({ id, error: errorText(error) });
  }
};
scope.postMessage("ready");
