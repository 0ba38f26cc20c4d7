import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { type Session, startServer } from "./harness.ts";
import { posix } from "../os.ts";

const NONE = ["NONE"];
/** Every integer parameter of every tool. */
const INTEGER_PARAMETERS: Record<string, string[]> = {
  execute: ["yield_ms", "timeout_ms", "max_output_bytes"],
  read: ["since_seq", "max_output_bytes", "tail_lines"],
  wait: ["timeout_ms", "max_output_bytes", "since_seq", "tail_lines"],
  stop: ["force_after_ms"],
  ps: ["limit"],
  cleanup: ["completed_older_than_ms", "stopped_older_than_ms"],
};
/**
 * tools/list stays below this many bytes (it was 19 503 with the SDK's own conversion for the
 * seven contract tools; `search` and the default view's tail fields add about 2.6 KB, `until`
 * about 2.2 KB).
 */
const LIST_BUDGET_BYTES = 21_000;

type Json = Record<string, unknown>;

async function toolsOf(session: Session): Promise<Map<string, Tool>> {
  const { tools } = await session.client.listTools() as { tools: Tool[] };
  return new Map(tools.map((tool) => [tool.name, tool]));
}

function property(tool: Tool | undefined, name: string): Json {
  const properties = tool?.inputSchema.properties as Record<string, Json> | undefined;
  const found = properties?.[name];
  assert.ok(found !== undefined, `${tool?.name} has no parameter ${name}`);
  return found;
}

/** Every object reachable from `value`, for checks that hold at any depth. */
function* nodes(value: unknown): Generator<Json> {
  if (Array.isArray(value)) { for (const item of value) yield* nodes(item); }
  else if (value !== null && typeof value === "object") {
    yield value as Json;
    for (const child of Object.values(value)) yield* nodes(child);
  }
}

Deno.test("tools/list is compact: no empty bounds, integers say integer, defaults in `default`, every field described", async () => {
  await using s = await startServer();
  const { tools } = await s.client.listTools() as { tools: Tool[] };
  const bytes = new TextEncoder().encode(JSON.stringify({ tools })).length;
  console.log(`tools/list: ${bytes} bytes`);
  assert.ok(bytes <= LIST_BUDGET_BYTES, `tools/list is ${bytes} bytes`);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const tool of tools) {
    for (const node of nodes([tool.inputSchema, tool.outputSchema])) {
      assert.notEqual(
        node.minimum,
        Number.MIN_SAFE_INTEGER,
        `${tool.name}: a bound that says nothing`,
      );
      assert.notEqual(
        node.maximum,
        Number.MAX_SAFE_INTEGER,
        `${tool.name}: a bound that says nothing`,
      );
      assert.equal("$schema" in node, false, tool.name);
    }
    assert.ok(tool.description && tool.description.length > 40, `${tool.name} is described`);
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      const { description } = schema as Json;
      assert.ok(typeof description === "string" && description.length > 0, `${tool.name}.${name}`);
    }
  }
  for (const [toolName, names] of Object.entries(INTEGER_PARAMETERS)) {
    for (const name of names) {
      const { type } = property(byName.get(toolName), name);
      assert.ok(
        [type].flat().includes("integer"),
        `${toolName}.${name} is ${JSON.stringify(type)}`,
      );
    }
  }
  const defaults: [string, string, unknown][] = [
    ["execute", "yield_ms", 30_000],
    ["execute", "timeout_ms", 3_600_000],
    ["execute", "max_output_bytes", 20_000],
    ["execute", "close_stdin", true],
    ["execute", "truncation", "head"],
    ["read", "streams", "both"],
    ["wait", "timeout_ms", 55_000],
    ["write", "newline", false],
    ["stop", "signal", "SIGTERM"],
    ["stop", "force_after_ms", 10_000],
    ["ps", "include_completed", true],
    ["ps", "limit", 50],
    ["cleanup", "completed_older_than_ms", 3_600_000],
  ];
  for (const [toolName, name, value] of defaults) {
    assert.deepEqual(property(byName.get(toolName), name).default, value, `${toolName}.${name}`);
  }
  // Null stays allowed where the contract allows it, enums included.
  assert.deepEqual(property(byName.get("execute"), "truncation").enum, ["head", "tail", null]);
  assert.deepEqual(property(byName.get("execute"), "yield_ms").type, ["integer", "null"]);
});

Deno.test("the server declares only the capabilities it has: a tool list that never changes", async () => {
  await using s = await startServer();
  assert.deepEqual(s.client.getServerCapabilities()?.tools, { listChanged: false });
});

Deno.test("descriptions and defaults state the operator's configured values", async () => {
  const config = await Deno.makeTempFile({ suffix: ".yaml" });
  try {
    await Deno.writeTextFile(config, "non_interactive_env:\n  CI: '1'\n");
    await using s = await startServer({
      args: [
        "--config",
        config,
        "--yield-ms",
        "1234",
        "--max-yield-ms",
        "40000",
        "--timeout-ms",
        "99000",
        "--max-output-bytes",
        "777",
        "--truncation",
        "tail",
        "--shell",
        "/bin/bash",
        "--blocked-side-effects",
        "DELETES_FILES",
      ],
    });
    const tools = await toolsOf(s);
    const execute = tools.get("execute");
    const yieldMs = property(execute, "yield_ms");
    assert.equal(yieldMs.default, 1234);
    assert.match(String(yieldMs.description), /clamped to 40000/);
    assert.equal(property(execute, "timeout_ms").default, 99_000);
    for (const name of ["execute", "read", "wait"]) {
      const maxOutput = property(tools.get(name), "max_output_bytes");
      assert.equal(maxOutput.default, 777, name);
      assert.match(String(maxOutput.description), /clamped to 777/, name);
    }
    assert.equal(property(execute, "truncation").default, "tail");
    assert.equal(property(tools.get("wait"), "truncation").default, "tail");
    const sideEffects = String(property(execute, "side_effects").description);
    assert.match(sideEffects, /DELETES_FILES/);
    assert.doesNotMatch(sideEffects, /RUNS_INLINE_CODE|KILLS_AGENT_PROCESS/);
    const description = execute?.description ?? "";
    assert.match(description, /\/bin\/bash -c/);
    assert.doesNotMatch(description, /dash|POSIX sh/);
    assert.match(description, /CI=1/);
    assert.doesNotMatch(description, /PAGER=cat/);
    assert.match(String(property(execute, "shell").description), /instead of \/bin\/bash/);
  } finally {
    await Deno.remove(config);
  }
});

Deno.test("the default shell, its limits, and what does not persist are in execute's description", async () => {
  await using s = await startServer();
  const description = (await toolsOf(s)).get("execute")?.description ?? "";
  for (
    const claim of [
      /\/bin\/sh -c/,
      /dash on Debian/,
      /\[\[ \]\], \{1\.\.3\} or set -o pipefail/,
      /shell "bash"/,
      /cd and export do not persist/,
      /cmd & holds the call for the whole yield window/,
      /yield_ms 0/,
      /setsid cmd >\/dev\/null 2>&1 &/,
      /GIT_TERMINAL_PROMPT=0 CI=true DEBIAN_FRONTEND=noninteractive PAGER=cat GIT_PAGER=cat/,
    ]
  ) assert.match(description, claim);
});

posix.test("what execute's description claims about the shell holds", async () => {
  await using s = await startServer();
  // cd and export do not persist between calls.
  await s.call("execute", { command: "cd / && export YS_PERSIST=1", side_effects: NONE });
  const next = await s.call("execute", {
    command: 'pwd; echo "${YS_PERSIST:-unset}"',
    side_effects: NONE,
    cwd: "/tmp",
  });
  assert.equal(next.payload.stdout, `${Deno.realPathSync("/tmp")}\nunset\n`);
  // A job left in the background holds the call until the yield window ends.
  const held = await s.call("execute", {
    command: "sleep 30 & echo started",
    side_effects: NONE,
    yield_ms: 200,
  });
  assert.equal(held.payload.status, "backgrounded");
  assert.equal(held.payload.stdout, "started\n");
  await s.call("stop", { execution_id: held.payload.execution_id, force_after_ms: 0 });
  // yield_ms 0 returns at once with a handle.
  const background = await s.call("execute", {
    command: "sleep 30",
    side_effects: NONE,
    yield_ms: 0,
  });
  assert.equal(background.payload.status, "backgrounded");
  await s.call("stop", { execution_id: background.payload.execution_id, force_after_ms: 0 });
});

posix.test("integer parameters accept integer-valued strings, as MCP Inspector's CLI sends them", async () => {
  await using s = await startServer();
  const capped = await s.call("execute", {
    command: "printf 'hello world'",
    side_effects: NONE,
    yield_ms: "30000",
    timeout_ms: "60000",
    max_output_bytes: "5",
    truncation: "head",
  });
  assert.equal(capped.isError, false, capped.text);
  assert.equal(capped.payload.status, "completed");
  assert.equal(capped.payload.stdout, "hello");
  assert.equal(capped.payload.capped, true);
  const id = capped.payload.execution_id;
  // A cursorless read would continue after "hello"; the whole line is the tail_lines peek.
  const tail = await s.call("read", { execution_id: id, tail_lines: "1" });
  assert.equal(tail.payload.stdout, "hello world");
  const peek = await s.call("read", { execution_id: id, since_seq: "7", max_output_bytes: "3" });
  assert.equal(peek.payload.stdout, "wor");
  const waited = await s.call("wait", { execution_id: id, timeout_ms: "0" });
  assert.equal(waited.payload.max_wait_ms, 0);
  const live = await s.call("execute", { command: "sleep 30", side_effects: NONE, yield_ms: "0" });
  assert.equal(live.payload.status, "backgrounded");
  const stopped = await s.call("stop", {
    execution_id: live.payload.execution_id,
    force_after_ms: "0",
  });
  assert.equal(stopped.payload.stopped, true);
  const listed = await s.call("ps", { limit: "1" });
  assert.equal(listed.payload.executions.length, 1);
  const cleaned = await s.call("cleanup", {
    completed_older_than_ms: "0",
    stopped_older_than_ms: "0",
  });
  assert.equal(cleaned.isError, false, cleaned.text);
  for (const bad of ["3.5", "abc", " 3", "3 ", "", "1e3", "0x10", "99999999999999999999"]) {
    const reply = await s.call("execute", { command: "true", side_effects: NONE, yield_ms: bad });
    assert.equal(reply.isError, true, bad);
    assert.match(
      reply.text,
      /^MCP error -32602: Input validation error: .*(Expected an integer \(digits in a string such as "3000" are accepted too\); received|Too big).* at yield_ms/s,
      bad,
    );
  }
});
