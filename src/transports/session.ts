import type { ProtocolServer } from "../protocol/protocol_server.ts";

/**
 * One MCP session as the application hands it to a transport: its server, and what the
 * transport needs to manage it (the MCP reference servers' `{ server, cleanup }`).
 */
export interface McpSession {
  readonly server: ProtocolServer;
  /** Whether the session still has work running (an idle session without any may end). */
  hasLiveWork(): boolean;
  /** Releases the session's work once it has ended (stops its executions). */
  close(): Promise<void>;
}

/** Builds the session that owns what `sessionId` starts. */
export type SessionFactory = (sessionId: string) => McpSession;
