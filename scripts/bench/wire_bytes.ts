import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { startServer } from "../../tests/e2e/harness.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import type { ExecutionManager } from "../../src/core/manager.ts";
import type { ExecutionSearch } from "../../src/core/execution_search.ts";
import type { ToolOptions } from "../../src/mcp/tool_settings.ts";
import type { ListedTool } from "../../src/mcp/tool_list.ts";
import type { ToolRegistry } from "../../src/mcp/tool_registry.ts";
import { CONTRACT_TOOLS } from "../../src/mcp/server.ts";
import { registerSearchTool } from "../../src/mcp/tools/search.ts";
import { currentPlatform } from "../../src/platform/mod.ts";
import type { SectionResult } from "./table.ts";

const root = new URL("../../", import.meta.url).pathname;
/** The budget for tools/list (#10 item 5). */
const LIST_TARGET_BYTES = 10_000;

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/**
 * The same eight tools, with the same descriptions, listed by the SDK's own conversion (what
 * tools/list was before yieldshell served its compact list): an in-process McpServer without
 * the override, over an in-memory transport.
 */
async function sdkListBytes(): Promise<number> {
  const server = new McpServer({ name: "baseline", version: "0" });
  const options: ToolOptions = {
    // Never called: listing tools does not touch the manager.
    manager: {} as ExecutionManager,
    settings: {
      ...defaultConfig(root),
      defaultShell: currentPlatform().facts.defaultShell(Deno.env.toObject()),
    },
  };
  for (const register of CONTRACT_TOOLS) register(sdkRegistry(server), options);
  registerSearchTool(sdkRegistry(server), { ...options, search: {} as ExecutionSearch });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "yieldshell-bench", version: "1.0.0" });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    return bytesOf(await client.listTools());
  } finally {
    await client.close();
    await server.close();
  }
}

/** Our tool registrations, made on the SDK's McpServer with its own conversion. */
function sdkRegistry(server: McpServer): ToolRegistry {
  const shim = {
    add(tool: ListedTool) {
      server.registerTool(tool.name, tool, () => ({ content: [] }));
      return tool;
    },
  };
  return shim as unknown as ToolRegistry;
}

/** Bytes an agent's client receives: the tools/list result and the result of `echo hi`. */
export async function benchWireBytes(): Promise<SectionResult> {
  await using session = await startServer();
  const list = await session.client.listTools() as { tools: Tool[] };
  const listBytes = bytesOf(list);
  const outputSchemaBytes = list.tools.reduce(
    (sum: number, tool: Tool) => sum + bytesOf({ outputSchema: tool.outputSchema }) + 1,
    0,
  );
  const echo = await session.client.callTool({
    name: "execute",
    arguments: { command: "echo hi", side_effects: ["NONE"] },
  });
  const echoBytes = bytesOf(echo);
  const structuredBytes = bytesOf(echo.structuredContent);
  return {
    rows: [
      {
        figure: "tools/list result (8 tools)",
        ours: listBytes,
        baseline: await sdkListBytes(),
        unit: "B",
        target: `≤ ${LIST_TARGET_BYTES} B`,
        met: listBytes <= LIST_TARGET_BYTES,
      },
      {
        figure: "tools/list: of it, the 8 output schemas",
        ours: outputSchemaBytes,
        baseline: null,
        unit: "B",
        target: "—",
        met: null,
      },
      {
        figure: "`echo hi` result (execute, inline)",
        ours: echoBytes,
        baseline: structuredBytes,
        unit: "B",
        target: "—",
        met: null,
      },
    ],
    notes: [
      "tools/list result: the bytes of the JSON of the `tools/list` result the SDK client receives from the server started as the README does; the baseline lists the same eight tools, with the same descriptions, through the SDK's own schema conversion (an in-process McpServer over an in-memory transport), which is what yieldshell served before its compact list. The output-schema row counts the `outputSchema` members within it (DESIGN.md requires one per tool).",
      "`echo hi` result: the bytes of the JSON of the whole `tools/call` result of `execute` with `echo hi` (structured content plus the same object as JSON text, as DESIGN.md requires); the baseline is the structured content alone.",
    ],
  };
}
