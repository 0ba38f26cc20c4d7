import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { parseUntil } from "../../src/core/conditions.ts";
import { UntilSchema } from "../../src/mcp/until_schema.ts";

/** The JSON Schema a client sees for `until`, through a real tools/list. */
async function listedUntilSchema(): Promise<Record<string, unknown>> {
  const server = new McpServer({ name: "until-schema", version: "1.0.0" });
  const InputSchema = z.object({ until: UntilSchema }).strict();
  server.registerTool(
    "wait",
    { inputSchema: InputSchema },
    (_args: z.infer<typeof InputSchema>) => ({
      content: [],
    }),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    const { tools } = await client.listTools();
    const properties = tools[0].inputSchema.properties as Record<string, Record<string, unknown>>;
    return properties.until;
  } finally {
    await client.close();
    await server.close();
  }
}

Deno.test("until schema: compact JSON Schema, one flat object described for the model", async () => {
  const until = await listedUntilSchema();
  const text = JSON.stringify(until);
  console.log(`until schema: ${text.length} bytes of JSON Schema`);
  assert.equal(until.type, "object");
  assert.equal(until.additionalProperties, false);
  assert.doesNotMatch(text, /anyOf|oneOf|allOf/, "no unions");
  assert.deepEqual(Object.keys(until.properties as object), [
    "output",
    "streams",
    "scope",
    "ignore_case",
    "idle_ms",
    "port",
    "host",
    "bytes",
  ]);
  for (
    const [name, property] of Object.entries(
      until.properties as Record<string, { description?: string }>,
    )
  ) {
    assert.ok((property.description ?? "").length > 10, `${name} is described`);
  }
  assert.ok(text.length < 1600, `until schema is ${text.length} bytes`);
});

Deno.test("until schema: an unknown key names the conditions; ranges are checked", () => {
  const unknown = UntilSchema.safeParse({ regex: "ready" });
  assert.equal(unknown.success, false);
  assert.match(
    unknown.error!.issues[0].message,
    /^Unknown until condition 'regex'; pass output, idle_ms, port or bytes/,
  );
  assert.match(
    UntilSchema.safeParse({ port: 0 }).error!.issues[0].message,
    /^until\.port must be 1 to 65535$/,
  );
  assert.match(
    UntilSchema.safeParse({ port: 65_536 }).error!.issues[0].message,
    /^until\.port must be 1 to 65535$/,
  );
  assert.equal(UntilSchema.safeParse({ idle_ms: 0 }).success, false);
  assert.equal(UntilSchema.safeParse({ bytes: 1.5 }).success, false);
});

Deno.test("until schema: whatever the schema accepts, the core either accepts or explains", () => {
  const accepted = [
    undefined,
    {},
    { output: "listening" },
    { output: "error", streams: "stderr", scope: "all", ignore_case: true },
    { idle_ms: 1 },
    { port: 65_535, host: "::1" },
    { bytes: 1, streams: "stdout" },
    // Schema-valid, refused by the core with a reason:
    { output: "(" },
    { host: "127.0.0.1" },
    { port: 80, host: "example.com" },
  ];
  for (const value of accepted) {
    assert.equal(UntilSchema.safeParse(value).success, true, JSON.stringify(value));
    const decision = parseUntil(value);
    if (!decision.ok) assert.match(decision.error, /; (pass|add|keep)/, decision.error);
  }
});
