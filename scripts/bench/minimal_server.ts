/**
 * The floor for any stdio MCP server on this SDK: one McpServer with one
 * trivial tool over StdioServerTransport, and nothing else. The cold-start
 * figure compares yieldshell's start-up with this, started the same way
 * (`deno run -q -P=server scripts/bench/minimal_server.ts`).
 */
import process from "node:process";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const EchoInputSchema = z.object({ text: z.string().describe("Text to return") });

/** Serves the minimal server over stdio until the client closes stdin. */
async function main(): Promise<void> {
  const server = new McpServer({ name: "bench-minimal", version: "0.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns its input", inputSchema: EchoInputSchema },
    (args: z.infer<typeof EchoInputSchema>) => ({ content: [{ type: "text", text: args.text }] }),
  );
  // Exit when the client closes stdin, as yieldshell does, so the bench never waits on a kill.
  process.stdin.once("end", () => void server.close().finally(() => process.exit(0)));
  await server.connect(new StdioServerTransport());
}

if (import.meta.main) await main();
