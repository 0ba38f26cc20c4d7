import {
  ErrorCode,
  isNotification,
  isParams,
  isRequest,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type Params,
  type RequestId,
  RpcError,
} from "./json_rpc.ts";
import type { McpTransport, MessageExtra, SendOptions } from "./transport.ts";

/** The protocol revisions this server speaks, newest first (the MCP SDK 1.32 list). */
export const SUPPORTED_PROTOCOL_VERSIONS = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
] as const;

/** What a request handler gets besides the params. */
export interface RequestExtra {
  requestId: RequestId;
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  /** The request's `_meta` (a progress token, for one). */
  meta?: Params;
  /** Sends a notification about this request (on its HTTP stream); nothing once aborted. */
  sendNotification(notification: Omit<JsonRpcNotification, "jsonrpc">): Promise<void>;
}

export type RequestHandler = (params: Params, extra: RequestExtra) => unknown;

/** Who the server is, as `initialize` reports it. */
export interface ServerInfo {
  name: string;
  version: string;
}

/**
 * One session's MCP server: JSON-RPC requests dispatched to handlers by method, `initialize`
 * and `ping` answered, cancellation, notifications out. It knows no tool or resource; those
 * register handlers. It does not validate what it sends: the handlers build typed results.
 */
export class ProtocolServer {
  #info: ServerInfo;
  #instructions: string | undefined;
  #capabilities: Params = {};
  #clientCapabilities: Params | undefined;
  #handlers = new Map<string, RequestHandler>();
  #inFlight = new Map<RequestId, AbortController>();
  #transport: McpTransport | undefined;
  /** Called once when the connection closes. */
  onclose?: () => void;

  constructor(info: ServerInfo, options: { instructions?: string } = {}) {
    this.#info = info;
    this.#instructions = options.instructions;
    this.#handlers.set("initialize", (params) => this.#initialize(params));
    this.#handlers.set("ping", () => ({}));
  }

  /** Adds capabilities; each key's object merges with what was declared before. */
  registerCapabilities(capabilities: Params): void {
    const merged: Params = { ...this.#capabilities };
    for (const [key, value] of Object.entries(capabilities)) {
      const before = merged[key];
      merged[key] = isParams(before) && isParams(value) ? { ...before, ...value } : value;
    }
    this.#capabilities = merged;
  }

  setRequestHandler(method: string, handler: RequestHandler): void {
    this.#handlers.set(method, handler);
  }

  /** The capabilities the client declared in `initialize`. */
  getClientCapabilities(): Params | undefined {
    return this.#clientCapabilities;
  }

  isConnected(): boolean {
    return this.#transport !== undefined;
  }

  /** Serves over `transport` (chaining the handlers it already has) and starts it. */
  async connect(transport: McpTransport): Promise<void> {
    this.#transport = transport;
    const { onclose, onmessage } = transport;
    transport.onclose = () => {
      onclose?.();
      this.#closed();
    };
    transport.onmessage = (message, extra) => {
      onmessage?.(message, extra);
      this.#receive(message, extra);
    };
    await transport.start();
  }

  async close(): Promise<void> {
    await this.#transport?.close();
  }

  /** Sends a notification; nothing when no client is connected. */
  async notification(
    notification: Omit<JsonRpcNotification, "jsonrpc">,
    options?: SendOptions,
  ): Promise<void> {
    await this.#transport?.send({ jsonrpc: "2.0", ...notification }, options);
  }

  #initialize(params: Params): Params {
    const requested = params.protocolVersion;
    if (typeof requested !== "string") {
      throw new RpcError(
        ErrorCode.InvalidParams,
        "initialize needs params.protocolVersion, the protocol revision the client speaks",
      );
    }
    this.#clientCapabilities = isParams(params.capabilities) ? params.capabilities : {};
    const known = (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested);
    return {
      protocolVersion: known ? requested : SUPPORTED_PROTOCOL_VERSIONS[0],
      capabilities: this.#capabilities,
      serverInfo: this.#info,
      ...(this.#instructions && { instructions: this.#instructions }),
    };
  }

  #receive(message: JsonRpcMessage, _extra?: MessageExtra): void {
    if (isRequest(message)) return this.#request(message);
    if (isNotification(message) && message.method === "notifications/cancelled") {
      const id = message.params?.requestId as RequestId | undefined;
      if (id !== undefined) this.#inFlight.get(id)?.abort(message.params?.reason);
    }
    // Other notifications (initialized, roots changed) and responses need nothing.
  }

  #request(request: JsonRpcRequest): void {
    const transport = this.#transport;
    const handler = this.#handlers.get(request.method);
    const { id } = request;
    if (handler === undefined) {
      const error = { code: ErrorCode.MethodNotFound, message: "Method not found" };
      transport?.send({ jsonrpc: "2.0", id, error }).catch(() => {});
      return;
    }
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    const params = request.params ?? {};
    const extra: RequestExtra = {
      requestId: id,
      signal: controller.signal,
      meta: isParams(params._meta) ? params._meta : undefined,
      sendNotification: async (notification) => {
        if (controller.signal.aborted) return;
        await this.notification(notification, { relatedRequestId: id });
      },
    };
    new Promise((resolve) => resolve(handler(params, extra)))
      .then(
        (result) => ({ result: result as Params, jsonrpc: "2.0" as const, id }),
        (error) => ({ jsonrpc: "2.0" as const, id, error: errorObject(error) }),
      )
      .then((response) => {
        // A cancelled request is not answered (the specification's rule).
        if (controller.signal.aborted) return;
        return transport?.send(response);
      })
      .catch(() => {})
      .finally(() => {
        if (this.#inFlight.get(id) === controller) this.#inFlight.delete(id);
      });
  }

  #closed(): void {
    this.#transport = undefined;
    // In-flight handlers stop sending: their answers have nowhere to go.
    for (const controller of this.#inFlight.values()) controller.abort();
    this.#inFlight.clear();
    this.onclose?.();
  }
}

function errorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RpcError) {
    return error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: ErrorCode.InternalError, message: message || "Internal error" };
}
