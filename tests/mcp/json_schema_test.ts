import assert from "node:assert/strict";
import { z } from "zod";
import { compactJsonSchema } from "../../src/mcp/json_schema.ts";
import { integer } from "../../src/mcp/schemas.ts";

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
