import type { TimerClock } from "./clock.ts";
import type { PortProbe } from "./condition_ports.ts";
import type { LoopbackAddress, PortCondition } from "./conditions.ts";

/** First pause between port probes; it grows by half per probe up to `PORT_POLL_MAX_MS`. */
export const PORT_POLL_FIRST_MS = 20;
/** Longest pause between port probes: a server that starts listening is seen within this. */
export const PORT_POLL_MAX_MS = 250;

export type PortOutcome =
  | { kind: "port"; host: LoopbackAddress; port: number }
  | { kind: "failed"; error: string };

/**
 * Probes the condition's addresses at once, then with backoff, until one accepts; null once
 * `signal` aborts. A host the server may not connect to fails at once with the reason.
 */
export async function waitForPort(
  condition: PortCondition,
  options: { probe: PortProbe; clock: TimerClock; signal: AbortSignal },
): Promise<PortOutcome | null> {
  const { port, hosts } = condition;
  const { probe, clock, signal } = options;
  const unavailable = hosts.map((host) => probe.unavailable(host)).find((text) => text !== null);
  if (unavailable !== undefined) return { kind: "failed", error: unavailable };
  let pauseMs = PORT_POLL_FIRST_MS;
  while (!signal.aborted) {
    const open = await Promise.all(
      hosts.map((host) => probe.accepts(host, port).then((ok) => ok ? host : null, () => null)),
    );
    const host = open.find((found) => found !== null);
    if (host !== undefined && host !== null) return { kind: "port", host, port };
    await pause(clock, pauseMs, signal);
    pauseMs = Math.min(pauseMs * 1.5, PORT_POLL_MAX_MS);
  }
  return null;
}

/** Resolves after `ms` on `clock`, or at once when `signal` aborts. */
function pause(clock: TimerClock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      cancel();
      signal.removeEventListener("abort", done);
      resolve();
    };
    const cancel = clock.setTimer(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
