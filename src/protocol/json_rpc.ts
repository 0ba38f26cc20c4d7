/** A JSON-RPC request id. */
export type RequestId = string | number;

/** Parameters of a request or notification: a JSON object. */
export type Params = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Params;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Params;
}

export interface JsonRpcResult {
  result: Params;
  jsonrpc: "2.0";
  id: RequestId;
}

export interface JsonRpcError {
  jsonrpc: "2.0";
  id: RequestId;
  error: { code: number; message: string; data?: unknown };
}

/** Any message of the wire. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResult | JsonRpcError;

/** The error codes JSON-RPC and MCP define that this server sends. */
export const ErrorCode = {
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** An error answered as a JSON-RPC error response with its own code. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }
}

/**
 * The message a parsed line holds, or why it is not one: the shapes of JSON-RPC 2.0 that MCP
 * uses (no batches).
 */
export function asMessage(value: unknown): JsonRpcMessage | string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return "a JSON-RPC message is a JSON object";
  }
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return 'jsonrpc must be "2.0"';
  const { id, method, params } = message;
  if (id !== undefined && typeof id !== "string" && !Number.isInteger(id)) {
    return "id must be a string or an integer";
  }
  if (method !== undefined) {
    if (typeof method !== "string") return "method must be a string";
    if (params !== undefined && !isParams(params)) return "params must be an object";
    return message as unknown as JsonRpcMessage;
  }
  if (id === undefined) return "a message needs a method, or an id with a result or an error";
  if (isParams(message.result) || isParams(message.error)) {
    return message as unknown as JsonRpcMessage;
  }
  return "a response needs a result or an error object";
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isParams(value: unknown): value is Params {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Whether a message is a request (it has a method and an id). */
export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message && message.id !== undefined;
}

/** Whether a message is a notification (a method, no id). */
export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message && message.id !== undefined);
}
