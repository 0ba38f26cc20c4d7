import process from "node:process";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

/** Serves one session over stdin/stdout; resolves when the client goes away (stdin EOF). */
export async function serveStdio(server: McpServer): Promise<void> {
  const closed = Promise.withResolvers<void>();
  const transport = new StdioServerTransport();
  transport.onclose = () => closed.resolve();
  process.stdin.once("end", () => closed.resolve());
  process.stdin.once("close", () => closed.resolve());
  await server.connect(transport);
  await closed.promise;
  await server.close().catch(() => {});
}
