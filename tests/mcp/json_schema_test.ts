import assert from "node:assert/strict";
import { z } from "zod";
import { compactJsonSchema } from "../../src/mcp/json_schema.ts";
import { integer } from "../../src/mcp/schemas.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import type { ExecutionManager } from "../../src/core/manager.ts";
import type { ExecutionSearch } from "../../src/core/execution_search.ts";
import type { TabShellTasks } from "../../src/core/tab_shell/tab_shell_tasks.ts";
import { ProtocolServer } from "../../src/protocol/protocol_server.ts";
import { registerTabShellTools } from "../../src/mcp/tab_shell/register_tab_shell_tools.ts";
import { ToolRegistry } from "../../src/mcp/tool_registry.ts";
import type { ToolSettings } from "../../src/mcp/tool_settings.ts";
import { CONTRACT_TOOLS } from "../../src/mcp/server.ts";
import { registerSearchTool } from "../../src/mcp/tools/search.ts";

const tabShellSettings = {
  foregroundTimeoutMs: 30_000,
  backgroundTimeoutMs: 600_000,
  maxOutputLength: 50_000,
  truncation: "tail",
  defaultShell: "/bin/sh",
  keepaliveMs: 5_000,
  retentionMs: 3_600_000,
};

Deno.test("compactJsonSchema drops what says nothing and keeps what says something", () => {
  const schema = z.strictObject({
    count: integer().prefault(5).describe("How many"),
    size: z.number().int().min(0).max(10).describe("Bounded"),
    id: z.string().max(8).nullable().optional().describe("Maybe"),
    mode: z.enum(["a", "b"]).nullable().default("a").describe("Which"),
    map: z.record(z.string(), z.number().int()).nullable().optional().describe("Named numbers"),
    flag: z.boolean().default(true).describe("Yes or no"),
  });
  assert.deepEqual(compactJsonSchema(schema, "input"), {
    type: "object",
    properties: {
      count: { description: "How many", default: 5, type: "integer" },
      size: { description: "Bounded", type: "integer", minimum: 0, maximum: 10 },
      id: { description: "Maybe", type: ["string", "null"], maxLength: 8 },
      mode: {
        default: "a",
        description: "Which",
        type: ["string", "null"],
        enum: ["a", "b", null],
      },
      map: {
        description: "Named numbers",
        type: ["object", "null"],
        propertyNames: { type: "string" },
        additionalProperties: { type: "integer" },
      },
      flag: { default: true, description: "Yes or no", type: "boolean" },
    },
    required: ["size"],
    additionalProperties: false,
  });
});

Deno.test("compactJsonSchema keeps a union that is not a nullable pair", () => {
  const schema = z.object({ either: z.union([z.string(), z.number().int()]) });
  const json = compactJsonSchema(schema, "output");
  assert.deepEqual((json.properties as Record<string, unknown>).either, {
    anyOf: [{ type: "string" }, { type: "integer" }],
  });
  assert.deepEqual(json.required, ["either"]);
});

/** zod's own conversion, compacted as the server did before it converted schemas itself. */
function zodOracle(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { target: "draft-07", io }) as Record<
    string,
    unknown
  >;
  return oracleCompact(json) as Record<string, unknown>;
}

function oracleCompact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(oracleCompact);
  if (value === null || typeof value !== "object") return value;
  const json: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "minimum" && child === Number.MIN_SAFE_INTEGER) continue;
    if (key === "maximum" && child === Number.MAX_SAFE_INTEGER) continue;
    json[key] = oracleCompact(child);
  }
  const { anyOf, ...rest } = json;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return json;
  const [inner, nullType] = anyOf as Record<string, unknown>[];
  if (Object.keys(nullType).length !== 1 || nullType.type !== "null") return json;
  if (typeof inner.type !== "string") return json;
  const merged: Record<string, unknown> = { ...rest, ...inner, type: [inner.type, "null"] };
  if (Array.isArray(inner.enum)) merged.enum = [...inner.enum, null];
  return merged;
}

Deno.test("every tool's schemas convert as zod's own toJSONSchema does, in every configuration", () => {
  const variants: Partial<ToolSettings>[] = [
    {},
    { terminals: true },
    { sandbox: "declared", terminals: true },
    { blockedSideEffects: ["RUNS_INLINE_CODE", "NETWORK"], truncation: "tail" },
  ];
  let compared = 0;
  for (const variant of variants) {
    const settings = { ...defaultConfig("/tmp"), defaultShell: "/bin/sh", ...variant };
    const registry = new ToolRegistry(new ProtocolServer({ name: "t", version: "0" }), "t");
    const manager = {} as ExecutionManager;
    for (const register of CONTRACT_TOOLS) register(registry, { manager, settings });
    registerSearchTool(registry, { manager, settings, search: {} as ExecutionSearch });
    registerTabShellTools(registry, { settings: tabShellSettings } as TabShellTasks);
    for (const tool of registry.listed) {
      for (const io of ["input", "output"] as const) {
        const schema = io === "input" ? tool.inputSchema : tool.outputSchema;
        assert.deepEqual(
          compactJsonSchema(schema, io),
          zodOracle(schema, io),
          `${tool.name} ${io} ${JSON.stringify(variant)}`,
        );
        compared++;
      }
    }
  }
  assert.equal(compared, 4 * 12 * 2);
});
