import type { z } from "zod";
import type { CallContext } from "../core/call_context.ts";
import type { Outcome } from "../contract/outcome.ts";
import { ErrorCode, type Params, RpcError } from "../protocol/json_rpc.ts";
import type { ProtocolServer, RequestExtra } from "../protocol/protocol_server.ts";
import { type CallToolResult, toolResult } from "./result.ts";
import { type ListedTool, type ToolEntry, toolList } from "./tool_list.ts";

/** Runs one call of a tool with its validated arguments. */
export type ToolRun<Args> = (
  args: Args,
  context: CallContext,
) => Outcome<Record<string, unknown>> | Promise<Outcome<Record<string, unknown>>>;

/** Bounds the work of validating pathological arguments (huge arrays, deep objects). */
const MAX_INPUT_ELEMENTS = 10_000;

/** How a tool's result differs from the default. */
export interface ToolResultOptions {
  /** The text content instead of the structured content's JSON. */
  text?: (payload: Record<string, unknown>) => string;
}

interface Registered {
  tool: ListedTool;
  run: ToolRun<never>;
  text?: (payload: Record<string, unknown>) => string;
}

/**
 * The tools of one session: `tools/list` (compact JSON Schemas, built once on first ask) and
 * `tools/call` (arguments checked by the tool's zod schema, then its run, then its outcome as
 * structured content and JSON text). A refused call is an `isError` result with the MCP SDK's
 * texts, as before this server answered tools/call itself.
 */
export class ToolRegistry {
  #owner: string;
  #tools = new Map<string, Registered>();
  #list: ToolEntry[] | undefined;

  constructor(server: ProtocolServer, owner: string) {
    this.#owner = owner;
    // This list never changes during a session and no list_changed notification is ever sent.
    server.registerCapabilities({ tools: { listChanged: false } });
    server.setRequestHandler("tools/list", () => ({ tools: this.#entries() }));
    server.setRequestHandler("tools/call", (params, extra) => this.#call(params, extra));
  }

  /** Serves `tool`; `run` gets arguments that passed its input schema. */
  add<Schema extends z.ZodType>(
    tool: ListedTool & { inputSchema: Schema },
    run: ToolRun<z.infer<Schema>>,
    options: ToolResultOptions = {},
  ): ListedTool {
    this.#tools.set(tool.name, { tool, run: run as ToolRun<never>, text: options.text });
    this.#list = undefined;
    return tool;
  }

  /** The tools served, in the order they were added. */
  get listed(): ListedTool[] {
    return [...this.#tools.values()].map(({ tool }) => tool);
  }

  #entries(): ToolEntry[] {
    return this.#list ??= toolList(this.listed);
  }

  async #call(params: Params, extra: RequestExtra): Promise<CallToolResult> {
    const { name, arguments: args } = params;
    if (typeof name !== "string") {
      throw new RpcError(ErrorCode.InvalidParams, "tools/call needs params.name, a tool's name");
    }
    if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        "tools/call's params.arguments must be an object of the tool's arguments",
      );
    }
    const registered = this.#tools.get(name);
    if (registered === undefined) return refused(`Tool ${name} not found`);
    if (elementCount(args, MAX_INPUT_ELEMENTS) > MAX_INPUT_ELEMENTS) {
      return refused(
        `Invalid arguments for tool ${name}: arguments contain more than the maximum of ${MAX_INPUT_ELEMENTS} elements`,
      );
    }
    const parsed = registered.tool.inputSchema.safeParse(args ?? {});
    if (!parsed.success) {
      return refused(
        `Input validation error: Invalid arguments for tool ${name}: ${issueText(parsed.error)}`,
      );
    }
    try {
      const outcome = await registered.run(parsed.data as never, this.#context(extra));
      const result = toolResult(outcome);
      if (registered.text) {
        result.content = [{ type: "text", text: registered.text(outcome.payload) }];
      }
      return result;
    } catch (error) {
      return errorResult(error instanceof Error ? error.message : String(error));
    }
  }

  /** The core's call context: owner, cancellation, and progress on the request's stream. */
  #context(extra: RequestExtra): CallContext {
    const context: CallContext = { owner: this.#owner, signal: extra.signal };
    const token = extra.meta?.progressToken;
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
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** A call refused before it ran, in the words (and code) MCP SDK servers use. */
function refused(message: string): CallToolResult {
  return errorResult(`MCP error ${ErrorCode.InvalidParams}: ${message}`);
}

/** Each issue's message with its path (`env.KEY`, `side_effects[0]`), a line each. */
function issueText(error: z.ZodError): string {
  return error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${issue.message} at ${dotPath(issue.path)}`
  ).join("\n");
}

function dotPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key, index) =>
      index === 0
        ? String(key)
        : typeof key === "number"
        ? `${text}[${key}]`
        : `${text}.${String(key)}`,
    "",
  );
}

/** Array items and object keys in `value`, counted up to just past `max`. */
function elementCount(value: unknown, max: number): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (++count > max) return count;
      if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return count;
}
