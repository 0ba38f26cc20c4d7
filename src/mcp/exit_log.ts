import type { ProtocolServer } from "../protocol/protocol_server.ts";
import { ErrorCode, RpcError } from "../protocol/json_rpc.ts";
import type { ExecutionEvent } from "../core/execution_events.ts";
import { exitFollowUp, exitSummary } from "./exit_notice.ts";

/** RFC 5424 order, as MCP's `logging/setLevel` uses it. */
const SEVERITY = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** A log level of MCP's `logging/setLevel`. */
export type LoggingLevel = typeof SEVERITY[number];

/** The `logger` of every log entry the server sends. */
export const LOGGER_NAME = "yieldshell";

/**
 * Exit notices as `notifications/message` entries (level info) for one session, honouring the
 * level the client sets with `logging/setLevel` (default: everything).
 */
export class ExitLog {
  #server: ProtocolServer;
  #minimum: LoggingLevel = "debug";

  /** Call before the server connects (it declares the logging capability). */
  constructor(server: ProtocolServer) {
    this.#server = server;
    server.registerCapabilities({ logging: {} });
    server.setRequestHandler("logging/setLevel", ({ level }) => {
      if (!SEVERITY.includes(level as LoggingLevel)) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Unknown log level ${JSON.stringify(level)}: pass one of ${SEVERITY.join(", ")}`,
        );
      }
      this.#minimum = level as LoggingLevel;
      return {};
    });
  }

  ended(event: Extract<ExecutionEvent, { type: "ended" }>): void {
    if (SEVERITY.indexOf("info") < SEVERITY.indexOf(this.#minimum)) return;
    this.#server.notification({
      method: "notifications/message",
      params: {
        level: "info",
        logger: LOGGER_NAME,
        data: {
          message: `${exitSummary(event)}; ${exitFollowUp(event.id)}`,
          execution_id: event.id,
          status: event.status,
          exit_code: event.exitCode,
          signal: event.signal,
        },
      },
    }).catch(() => {});
  }
}
