import {
  type CancelledNotification,
  CancelledNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** Whether `message` is a JSON-RPC cancellation notification. */
export function isCancelledNotification(message: unknown): message is CancelledNotification {
  return CancelledNotificationSchema.safeParse(message).success;
}

/** The messages of a POST body: a batch, one message, or none. */
export function messagesOf(body: unknown): unknown[] {
  if (body === undefined) return [];
  return Array.isArray(body) ? body : [body];
}
