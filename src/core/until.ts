import type { UntilArgs } from "../contract/arguments.ts";
import type { MatchFields, UntilResult } from "../contract/results.ts";
import { UNTIL_WITHOUT_YIELD } from "../contract/texts.ts";
import type { BlockOptions, BlockOutcome } from "./blocking.ts";
import type { CallContext } from "./call_context.ts";
import type { TimerClock } from "./clock.ts";
import type { PortProbe, RegexRunner } from "./condition_ports.ts";
import { type ConditionHit, watchConditions } from "./condition_watch.ts";
import { type Conditions, parseUntil, RESULT_NAMES } from "./conditions.ts";
import type { Execution } from "./execution.ts";
import { executionSource } from "./execution_source.ts";
import type { PageRequest } from "./page.ts";
import { blockOnTerminal } from "./terminal_blocking.ts";

/** What conditions need from the edge: a bounded regex runner, a port probe and a timer clock. */
export interface UntilPorts {
  regex: RegexRunner;
  probe: PortProbe;
  clock: TimerClock;
}

/** A condition other than exit held (or watching failed, with its reason). */
export type UntilHit = Exclude<ConditionHit, { kind: "exit" }>;

/** How a blocking call with conditions ended. */
export type UntilOutcome = { outcome: BlockOutcome | "awaiting_input"; hit: null } | {
  outcome: "condition";
  hit: UntilHit;
};

/**
 * Checks `until` before anything waits: a parse error, a port on hosts the server may not probe,
 * or conditions without a `window` to watch them in (`execute` with `yield_ms: 0`). A port
 * condition keeps only the hosts it may probe.
 */
export function checkUntil(
  raw: UntilArgs | null | undefined,
  probe: PortProbe,
  options: { window: boolean } = { window: true },
): { conditions: Conditions } | { error: string } {
  const decision = parseUntil(raw);
  if (!decision.ok) return { error: decision.error };
  const { conditions } = decision;
  if (!options.window && hasConditions(conditions)) return { error: UNTIL_WITHOUT_YIELD };
  const { port } = conditions;
  if (port === null) return { conditions };
  const hosts = port.hosts.filter((host) => probe.unavailable(host) === null);
  if (hosts.length === 0) return { error: probe.unavailable(port.hosts[0])! };
  return { conditions: { ...conditions, port: { ...port, hosts } } };
}

/** Whether anything but exit can end the wait. */
export function hasConditions(conditions: Conditions): boolean {
  const { output, idleMs, port, bytes } = conditions;
  return output !== null || idleMs !== null || port !== null || bytes !== null;
}

/**
 * `blockOn` that also ends when a condition holds. Output in the final flush still counts: when
 * the execution ends first, the watcher's last scan decides between a match and the exit.
 */
export async function blockUntil(
  execution: Execution,
  conditions: Conditions,
  budgetMs: number,
  context: CallContext,
  options: BlockOptions & { ports: UntilPorts; cursorSeq: number },
): Promise<UntilOutcome> {
  if (!hasConditions(conditions)) {
    return { outcome: await blockOnTerminal(execution, budgetMs, context, options), hit: null };
  }
  const { regex, probe, clock } = options.ports;
  const watch = watchConditions(executionSource(execution), conditions, {
    cursorSeq: options.cursorSeq,
    regex,
    probe,
    clock,
  });
  const held = new AbortController();
  let hit: UntilHit | null = null;
  watch.result.then((first) => {
    if (first === null || first.kind === "exit") return;
    hit = first;
    held.abort();
  });
  const signals = [held.signal, ...context.signal === undefined ? [] : [context.signal]];
  try {
    const outcome = await blockOnTerminal(execution, budgetMs, {
      ...context,
      signal: AbortSignal.any(signals),
    }, options);
    if (outcome === "finished") await watch.result;
    if (hit !== null) return { outcome: "condition", hit };
    return { outcome, hit: null };
  } finally {
    watch.close();
  }
}

/** `wait_result` or `until_result` of a condition that held. */
export function untilResult(hit: UntilHit & { kind: keyof typeof RESULT_NAMES }): UntilResult {
  return RESULT_NAMES[hit.kind] as UntilResult;
}

/** The `match` of an output hit. */
export function matchFields(hit: UntilHit): MatchFields | null {
  if (hit.kind !== "output") return null;
  return { stream: hit.stream, text: hit.text, seq: hit.seq };
}

/**
 * The page of an output hit ends with the matched line: read from the cursor at most the bytes
 * up to it (the cap still applies: a longer range is capped, with the usual hint). Tail and
 * narrowed requests, other hits and a match already read keep the request as it was.
 */
export function untilPage(request: PageRequest, hit: UntilHit | null): PageRequest {
  if (hit?.kind !== "output" || request.tailLines !== null || request.streams !== "both") {
    return request;
  }
  const range = hit.page.endSeq - hit.page.startSeq;
  if (range <= 0) return request;
  const asked = request.maxOutputBytes;
  const maxOutputBytes = asked === null || asked === undefined || asked <= 0
    ? range
    : Math.min(asked, range);
  return { ...request, maxOutputBytes, truncation: "head", tails: false };
}
