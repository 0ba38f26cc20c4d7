import { delay } from "../core/timing.ts";
import { Guardian } from "./guardian.ts";
import type { ProcessTable } from "./process_table.ts";
import { sendSignal } from "./send_signal.ts";

/** Environment variable carrying the per-execution containment token (Linux). */
export const TOKEN_VARIABLE = "_MCP_YIELDSHELL_EXECUTION_TOKEN";
/** Poll interval while only token holders outside the group remain. */
const TOKEN_POLL_MS = 250;

/** Options of {@linkcode Containment}. */
export interface ContainmentOptions {
  /** Whether children carry a token and token holders are searched (Linux). */
  tokens: boolean;
  /** The server's own pid, never reported as a token holder. */
  selfPid: number;
  table: ProcessTable;
}

/**
 * Keeps hold of every process an execution starts, even one that left its group with
 * `setsid`: a random token in each child's environment finds them, and a guardian that
 * outlives the server kills them should the server die first.
 */
export class Containment {
  #options: ContainmentOptions;
  #guardian = new Guardian();

  constructor(options: ContainmentOptions) {
    this.#options = options;
  }

  /** A fresh token for a new tree, or null when tokens are off. */
  newToken(): string | null {
    return this.#options.tokens ? crypto.randomUUID().replaceAll("-", "") : null;
  }

  /** `env` carrying `token`. */
  tag(env: Record<string, string>, token: string | null): Record<string, string> {
    return token === null ? env : { ...env, [TOKEN_VARIABLE]: token };
  }

  /** Hands a new group (and its token) to the guardian. */
  guard(pgid: number, token: string | null): void {
    this.#guardian.guard(pgid, token);
  }

  /** The group is gone: the guardian forgets it (its pgid may be reused). */
  releaseGroup(pgid: number): void {
    this.#guardian.releaseGroup(pgid);
  }

  /** The record is removed: the guardian stops tracking its token. */
  releaseToken(token: string | null): void {
    if (token !== null) this.#guardian.releaseToken(token);
  }

  /** Sends `signal` to every live process carrying `token`. */
  async signalHolders(token: string | null, signal: string): Promise<void> {
    if (token === null) return;
    const holders = await this.#holders([token]);
    for (const pid of holders.get(token) ?? []) sendSignal(pid, signal);
  }

  /** SIGTERM to every holder of `tokens`, then SIGKILL to those left after `graceMs`. */
  async sweep(tokens: readonly string[], graceMs: number): Promise<void> {
    const strays = async () => [...(await this.#holders(tokens)).values()].flat();
    let pids = await strays();
    if (pids.length === 0) return;
    for (const pid of pids) sendSignal(pid, "SIGTERM");
    const deadline = performance.now() + graceMs;
    while (pids.length > 0 && performance.now() < deadline) {
      await delay(TOKEN_POLL_MS);
      pids = await strays();
    }
    for (const pid of pids) sendSignal(pid, "SIGKILL");
  }

  /**
   * Live processes that carry each token in their environment; concurrent calls share one
   * look at the process table.
   */
  async #holders(tokens: readonly string[]): Promise<Map<string, number[]>> {
    const { tokens: enabled, selfPid, table } = this.#options;
    const found = new Map<string, number[]>();
    if (!enabled || tokens.length === 0) return found;
    const scanned = await this.#guardian.scan(tokens);
    if (scanned !== null) {
      for (const token of tokens) {
        const pids = (scanned.get(token) ?? []).filter((pid) => pid !== selfPid);
        if (pids.length > 0) found.set(token, pids);
      }
      return found;
    }
    // The guardian is gone: fall back to ps, whose `e` output ends with the environment.
    for (const row of await table.snapshot() ?? []) {
      if (row.zombie || row.pid === selfPid) continue;
      for (const token of tokens) {
        if (!row.args.includes(`${TOKEN_VARIABLE}=${token}`)) continue;
        found.set(token, [...found.get(token) ?? [], row.pid]);
      }
    }
    return found;
  }
}
