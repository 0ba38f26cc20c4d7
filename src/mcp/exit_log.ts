import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type LoggingLevel,
  type SetLevelRequest,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ExecutionEvent } from "../core/execution_events.ts";
import { exitFollowUp, exitSummary } from "./exit_notice.ts";

/** RFC 5424 order, as MCP's `logging/setLevel` uses it. */
const SEVERITY: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** The `logger` of every log entry the server sends. */
export const LOGGER_NAME = "yieldshell";

/**
 * Exit notices as `notifications/message` entries (level info) for one session, honouring the
 * level the client sets with `logging/setLevel` (default: everything).
 */
export class ExitLog {
  #server: McpServer;
  #minimum: LoggingLevel = "debug";

  /** Call before the server connects (it declares the logging capability). */
  constructor(server: McpServer) {
    this.#server = server;
    server.server.registerCapabilities({ logging: {} });
    server.server.setRequestHandler(SetLevelRequestSchema, (request: SetLevelRequest) => {
      this.#minimum = request.params.level;
      return {};
    });
  }

  ended(event: Extract<ExecutionEvent, { type: "ended" }>): void {
    if (SEVERITY.indexOf("info") < SEVERITY.indexOf(this.#minimum)) return;
    this.#server.server.notification({
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
