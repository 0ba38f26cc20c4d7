/**
 * Imports what any stdio MCP server on this SDK needs, and exits: scripts/bench/cold_start.ts
 * times it, as the part of a cold start no server code can save.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

if (typeof McpServer !== "function" || typeof StdioServerTransport !== "function") Deno.exit(1);
