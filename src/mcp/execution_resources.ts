import { ErrorCode, type Params, RpcError } from "../protocol/json_rpc.ts";
import type { ProtocolServer } from "../protocol/protocol_server.ts";
import type { TimerClock } from "../core/clock.ts";
import type { ExecutionEvent, ExecutionFeed } from "../core/execution_events.ts";
import { UpdateThrottle } from "./update_throttle.ts";

/** URI template of one execution's resource. */
export const EXECUTION_URI_TEMPLATE = "yieldshell://executions/{id}";
/** The specification's error code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;
const URI_PATTERN = /^yieldshell:\/\/executions\/([^/?#]+)$/;

export function executionUri(id: string): string {
  return `yieldshell://executions/${id}`;
}

/** Options for {@linkcode ExecutionResources}. */
export interface ExecutionResourcesOptions {
  owner: string;
  /** Least time between two output-driven updates of one resource. */
  outputUpdateIntervalMs: number;
  clock: TimerClock;
}

/**
 * One session's executions as MCP resources: `resources/list` and `resources/read` of
 * `yieldshell://executions/{id}` (status and newest output as JSON), and `resources/subscribe`
 * with `notifications/resources/updated` at exit and, throttled, on new output.
 */
export class ExecutionResources {
  #server: ProtocolServer;
  #registry: ExecutionFeed;
  #owner: string;
  #subscribed = new Set<string>();
  #throttle: UpdateThrottle;

  /** Call before the server connects (it registers handlers and capabilities). */
  constructor(server: ProtocolServer, registry: ExecutionFeed, options: ExecutionResourcesOptions) {
    this.#server = server;
    this.#registry = registry;
    this.#owner = options.owner;
    this.#throttle = new UpdateThrottle((uri) => this.#sendUpdated(uri), {
      intervalMs: options.outputUpdateIntervalMs,
      clock: options.clock,
    });
    this.#register();
  }

  /** Reacts to one event of this session's executions. */
  handle(event: ExecutionEvent): void {
    const uri = executionUri(event.id);
    switch (event.type) {
      case "started":
        return this.#sendListChanged();
      case "output":
        if (this.#subscribed.has(uri)) this.#throttle.changed(uri);
        return;
      case "ended":
        if (this.#subscribed.has(uri)) this.#throttle.now(uri);
        return;
      case "removed":
        // Subscribers read it once more (and learn it is gone); then it is forgotten.
        if (this.#subscribed.has(uri)) this.#throttle.now(uri);
        this.#subscribed.delete(uri);
        this.#throttle.forget(uri);
        return this.#sendListChanged();
    }
  }

  close(): void {
    this.#throttle.close();
    this.#subscribed.clear();
  }

  #register(): void {
    const server = this.#server;
    server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
    server.setRequestHandler("resources/list", () => ({
      resources: this.#registry.list(this.#owner).map((execution) => ({
        uri: executionUri(execution.id),
        name: `execution ${execution.id}`,
        title: execution.label.length > 80 ? `${execution.label.slice(0, 79)}…` : execution.label,
        description: `status: ${execution.status}`,
        mimeType: "application/json",
      })),
    }));
    server.setRequestHandler("resources/templates/list", () => ({
      resourceTemplates: [{
        name: "executions",
        uriTemplate: EXECUTION_URI_TEMPLATE,
        title: "Executions of this session",
        description:
          "Status and newest output of one execution; subscribe to hear when it gets output or ends",
        mimeType: "application/json",
      }],
    }));
    server.setRequestHandler("resources/read", (params) => {
      const uri = uriOf(params, "resources/read");
      return {
        contents: [{ uri, mimeType: "application/json", text: JSON.stringify(this.#view(uri)) }],
      };
    });
    server.setRequestHandler("resources/subscribe", (params) => {
      const uri = uriOf(params, "resources/subscribe");
      this.#view(uri);
      this.#subscribed.add(uri);
      return {};
    });
    server.setRequestHandler("resources/unsubscribe", (params) => {
      const uri = uriOf(params, "resources/unsubscribe");
      this.#subscribed.delete(uri);
      this.#throttle.forget(uri);
      return {};
    });
  }

  /** The view of an execution of this session, or the specification's not-found error. */
  #view(uri: string): Record<string, unknown> {
    const id = URI_PATTERN.exec(uri)?.[1];
    const view = id === undefined ? null : this.#registry.view(this.#owner, decodeURIComponent(id));
    if (view === null) {
      throw new RpcError(
        RESOURCE_NOT_FOUND,
        `Unknown resource ${uri}: no execution of this session has that id; list them with resources/list`,
        { uri },
      );
    }
    return view;
  }

  #sendUpdated(uri: string): void {
    this.#server.notification({ method: "notifications/resources/updated", params: { uri } })
      .catch(() => {});
  }

  #sendListChanged(): void {
    this.#server.notification({ method: "notifications/resources/list_changed" }).catch(() => {});
  }
}

/** The `uri` a resources request names. */
function uriOf(params: Params, method: string): string {
  if (typeof params.uri === "string") return params.uri;
  throw new RpcError(ErrorCode.InvalidParams, `${method} needs params.uri, a resource's URI`);
}
