import { systemClock, type TimerClock } from "../core/clock.ts";
import type { ExecutionEvent, ExecutionFeed } from "../core/execution_events.ts";
import { type ChannelMode, ClaudeChannel } from "./claude_channel.ts";
import { ExecutionResources } from "./execution_resources.ts";
import { ExitLog } from "./exit_log.ts";
import type { ProtocolServer } from "../protocol/protocol_server.ts";

/** Options for {@linkcode attachSessionPushes}. */
export interface SessionPushOptions {
  /** The session; it hears only about its own executions. */
  owner: string;
  /** Least time between two output-driven resource updates of one execution. @default 1000 */
  outputUpdateIntervalMs?: number;
  /** Claude Code channel events: when the client declares the capability. @default "opt-in" */
  channel?: ChannelMode;
  /** @default {systemClock} */
  clock?: TimerClock;
  /**
   * Runs the pushes of the events so far. The default waits for the next macrotask, so that an
   * answer on its way out (the `wait` that saw the exit) is written before the word about it.
   * @default {(run) => setTimeout(run, 0)}
   */
  schedule?: (run: () => void) => void;
}

/** The pushes of one session; closing stops them (also done when the session's server closes). */
export interface SessionPushes extends Disposable {
  close(): void;
}

/** Default least time between two output-driven updates of one resource. */
export const OUTPUT_UPDATE_INTERVAL_MS = 1_000;

/**
 * Word on exit, pushed to one session without a poll: a `notifications/message` entry and a
 * Claude Code channel event when one of its background executions ends, and its executions as
 * subscribable resources. Call before `server.connect` (capabilities are declared here).
 */
export function attachSessionPushes(
  server: ProtocolServer,
  registry: ExecutionFeed,
  options: SessionPushOptions,
): SessionPushes {
  const {
    owner,
    outputUpdateIntervalMs = OUTPUT_UPDATE_INTERVAL_MS,
    channel: channelMode = "opt-in",
    clock = systemClock,
    schedule = (run) => void setTimeout(run, 0),
  } = options;
  const log = new ExitLog(server);
  const channel = new ClaudeChannel(server, channelMode);
  const resources = new ExecutionResources(server, registry, {
    owner,
    outputUpdateIntervalMs,
    clock,
  });
  let closed = false;
  const pending: ExecutionEvent[] = [];
  const push = () => {
    for (const event of pending.splice(0)) {
      if (closed || !server.isConnected()) return;
      resources.handle(event);
      if (event.type === "ended" && event.backgrounded) {
        log.ended(event);
        channel.ended(event);
      }
    }
  };
  const unsubscribe = registry.subscribe((event: ExecutionEvent) => {
    if (event.owner !== owner || !server.isConnected()) return;
    if (pending.push(event) === 1) schedule(push);
  });
  const close = () => {
    if (closed) return;
    closed = true;
    pending.length = 0;
    unsubscribe();
    resources.close();
  };
  const previous = server.onclose;
  server.onclose = () => {
    close();
    previous?.();
  };
  return { close, [Symbol.dispose]: close };
}
