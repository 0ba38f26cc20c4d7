import type { JsonRpcMessage, RequestId } from "./json_rpc.ts";

/** What a transport may pass along with a message (the HTTP transport's request details). */
export interface MessageExtra {
  requestInfo?: unknown;
  authInfo?: unknown;
}

/** Where a message sent belongs: the request it is about, so HTTP puts it on that stream. */
export interface SendOptions {
  relatedRequestId?: RequestId;
}

/**
 * A message channel to one client, in the shape of the MCP SDK's `Transport` (so the SDK's
 * streamable HTTP transport serves as one): the server sets the handlers, then calls `start`.
 */
export interface McpTransport {
  start(): Promise<void>;
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: JsonRpcMessage, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
}
