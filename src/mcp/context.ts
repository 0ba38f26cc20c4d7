import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { CallContext } from "../core/call_context.ts";

/** The handler's extra argument as the SDK passes it. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Builds the core's call context: owner, cancellation, and progress on the request's stream. */
export function callContext(owner: string, extra: ToolExtra): CallContext {
  const token = extra._meta?.progressToken;
  const context: CallContext = { owner, signal: extra.signal };
  if (token !== undefined) {
    context.onProgress = (progress, message) => {
      extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress, message },
      }).catch(() => {});
    };
  }
  return context;
}
