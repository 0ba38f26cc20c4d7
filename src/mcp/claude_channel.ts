import type { ProtocolServer } from "../protocol/protocol_server.ts";
import type { ExecutionEvent } from "../core/execution_events.ts";
import { exitFollowUp, exitSummary } from "./exit_notice.ts";

/** The experimental capability Claude Code's channels use, on both sides of `initialize`. */
export const CHANNEL_CAPABILITY = "claude/channel";

/** When channel events are sent: when the client declares the capability, always, or never. */
export type ChannelMode = "opt-in" | "always" | "off";

/**
 * Claude Code's channel (research preview): `notifications/claude/channel` with `content` (the
 * text the agent sees in a `<channel source="...">` tag) and `meta` (string attributes whose keys
 * are identifiers). The server declares `experimental["claude/channel"]` so Claude Code listens.
 */
export class ClaudeChannel {
  #server: ProtocolServer;
  #mode: ChannelMode;

  /** Call before the server connects (it declares the capability). */
  constructor(server: ProtocolServer, mode: ChannelMode) {
    this.#server = server;
    this.#mode = mode;
    if (mode !== "off") {
      server.registerCapabilities({ experimental: { [CHANNEL_CAPABILITY]: {} } });
    }
  }

  /** Whether this session's client gets channel events. */
  get enabled(): boolean {
    if (this.#mode !== "opt-in") return this.#mode === "always";
    const experimental = this.#server.getClientCapabilities()?.experimental as
      | Record<string, unknown>
      | undefined;
    return experimental?.[CHANNEL_CAPABILITY] !== undefined;
  }

  ended(event: Extract<ExecutionEvent, { type: "ended" }>): void {
    if (!this.enabled) return;
    const meta: Record<string, string> = { execution_id: event.id, status: event.status };
    if (event.exitCode !== null) meta.exit_code = String(event.exitCode);
    if (event.signal !== null) meta.signal = event.signal;
    this.#server.notification({
      method: "notifications/claude/channel",
      params: { content: `${exitSummary(event)}; ${exitFollowUp(event.id)}.`, meta },
    }).catch(() => {});
  }
}
