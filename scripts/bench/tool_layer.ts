/**
 * The least any start of ours does before it can answer tools/list: import zod and the tool
 * layer (src/mcp: schemas, descriptions, the registry), build one session's tools and their
 * list, then exit. scripts/bench/cold_start.ts times it as the floor of a server whose tool
 * schemas are zod objects; zod_import.ts is zod alone.
 */
import { z } from "zod";
import { defaultConfig } from "../../src/config/schema.ts";
import type { ExecutionManager } from "../../src/core/manager.ts";
import type { ExecutionSearch } from "../../src/core/execution_search.ts";
import type { McpTransport } from "../../src/protocol/transport.ts";
import { createServer } from "../../src/mcp/server.ts";

const manager = { events: { subscribe: () => () => {} } } as unknown as ExecutionManager;
const server = createServer(manager, {
  owner: "floor",
  version: "0",
  settings: { ...defaultConfig(Deno.cwd()), defaultShell: "/bin/sh" },
  search: {} as ExecutionSearch,
});
let listed = 0;
const transport: McpTransport = {
  start: () => Promise.resolve(),
  close: () => Promise.resolve(),
  send: (message) => {
    if ("result" in message) listed = (message.result.tools as unknown[]).length;
    return Promise.resolve();
  },
};
await server.connect(transport);
transport.onmessage?.({ jsonrpc: "2.0", id: 1, method: "tools/list" });
await Promise.resolve();
await new Promise((resolve) => queueMicrotask(() => resolve(null)));
if (listed === 0 || typeof z.object !== "function") Deno.exit(1);
