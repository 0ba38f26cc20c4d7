/**
 * Tool-input fuzzing through the real server (issue #7): random and mutated arguments for every
 * tool (wrong types, missing and extra keys, huge and deeply nested values, unicode, NUL bytes,
 * negative and huge numbers) sent by the SDK's `Client` to `main.ts` over stdio. Each call must
 * get a schema error (`isError`, no structured content) exactly when the tool's input schema
 * rejects the arguments, and otherwise a structured result that matches the output schema (the
 * client validates it) and the contract's rules for that tool. At the end the server still
 * answers `ps` and runs `echo`, and its process is alive.
 *
 * Safety: `command` is only ever one of SAFE_COMMANDS (or a non-string), `shell` one of
 * SAFE_SHELLS, and `env` names are FUZZ_* or deliberately invalid, so nothing a call runs can
 * touch a file or change how the shell behaves. A final `sanitize()` enforces this whatever the
 * generators produce. Calls that could block (a `wait` or `stop` on the live `cat` fixture) get
 * budgets of at most 300 ms.
 *
 * Sizes: 1 500 calls by default; `YIELDSHELL_LONG_TESTS=1` makes 6 000 (each run stops early
 * after 50 s and prints how many it made). Seed: fixed and printed; `YIELDSHELL_TEST_SEED=<n>`
 * replays another one, `YIELDSHELL_TEST_SEED=random` (or `deno task fuzz`) explores.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { defaultConfig } from "../../src/config/schema.ts";
import { cleanupInputSchema } from "../../src/mcp/tools/cleanup.ts";
import { executeInputSchema } from "../../src/mcp/tools/execute.ts";
import { psInputSchema } from "../../src/mcp/tools/ps.ts";
import { readInputSchema } from "../../src/mcp/tools/read.ts";
import { stopInputSchema } from "../../src/mcp/tools/stop.ts";
import { waitInputSchema } from "../../src/mcp/tools/wait.ts";
import { writeInputSchema } from "../../src/mcp/tools/write.ts";
import { SIDE_EFFECTS } from "../../src/policy/side_effects.ts";
import {
  eventually,
  isAlive,
  marker,
  processesWithMarker,
  type Session,
  startServer,
} from "./harness.ts";
import { linux } from "../os.ts";
import { testSeed } from "../seed.ts";

const LONG = Deno.env.get("YIELDSHELL_LONG_TESTS") === "1";
const CALLS = LONG ? 6_000 : 1_500;
const TIME_LIMIT_MS = 50_000;
const SEED = testSeed("tool-input fuzz", 7_000_007);

/** The SDK's element ceiling the server sets (`maxToolInputElements` in src/mcp/server.ts). */
const MAX_INPUT_ELEMENTS = 10_000;
/** YIELDSHELL_MAX_OUTPUT_BYTES default: the response cap. */
const OUTPUT_CAP = 20_000;
/** A wait or stop aimed at the live fixture never blocks longer than this. */
const LIVE_BUDGET_MS = 300;

/** Commands the fuzzer may run, with the stdout and exit code each must produce. */
const SAFE_COMMANDS: Record<string, { stdout: string; stderr: string; exitCode: number }> = {
  "true": { stdout: "", stderr: "", exitCode: 0 },
  ":": { stdout: "", stderr: "", exitCode: 0 },
  "": { stdout: "", stderr: "", exitCode: 0 },
  "echo x": { stdout: "x\n", stderr: "", exitCode: 0 },
  "printf 'a\\nb'": { stdout: "a\nb", stderr: "", exitCode: 0 },
  "printf '\\342\\202\\254\\n'": { stdout: "€\n", stderr: "", exitCode: 0 },
  "echo žluťoučký 😀": { stdout: "žluťoučký 😀\n", stderr: "", exitCode: 0 },
  "echo e >&2": { stdout: "", stderr: "e\n", exitCode: 0 },
  "exit 3": { stdout: "", stderr: "", exitCode: 3 },
};
/** Shells the fuzzer may name: three that work, then three that must fail to start. */
const SAFE_SHELLS = ["/bin/sh", "/bin/bash", "sh", "", "   ", "/nonexistent/shell"];
/** How the SDK words a rejected tool call (an InvalidParams error turned into a tool error). */
const SCHEMA_ERROR =
  /^MCP error -32602: (Input validation error: |Invalid arguments for tool |Tool .* not found)/;
const INVALID_ENV_NAMES = ["", "A=B", "NUL\0NAME"];

/** The server under test runs with the default settings (they change descriptions and defaults). */
const SETTINGS = { ...defaultConfig(Deno.cwd()), defaultShell: "/bin/sh" };
const INPUT_SCHEMAS: Record<string, z.ZodType> = {
  execute: executeInputSchema(SETTINGS),
  read: readInputSchema(SETTINGS),
  write: writeInputSchema(SETTINGS),
  wait: waitInputSchema(SETTINGS),
  stop: stopInputSchema(),
  ps: psInputSchema(),
  cleanup: cleanupInputSchema(),
};

type Args = Record<string, unknown>;
/** Where an `execution_id` of a generated call points; resolved against live state at send time. */
type Target = "live" | "finished" | "literal";
interface Call {
  tool: string;
  args: Args;
  target: Target;
}

// ---------------------------------------------------------------------------------------------
// Value generators.

const edgeIntegers = fc.constantFrom(
  0,
  -1,
  1,
  2,
  7,
  -55_001,
  55_000,
  2 ** 31,
  -(2 ** 31),
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 53 + 2,
  1e21,
);
const numbers = fc.oneof(
  edgeIntegers,
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.constantFrom(0.5, -0.25, 1e308, -1e308, 3.000001, Number.MIN_VALUE),
  // Integer parameters accept the text of an integer (MCP Inspector's CLI sends only strings).
  fc.constantFrom(
    "0",
    "7",
    "-3",
    "3000",
    "3.5",
    " 3",
    "3 ",
    "abc",
    "1e3",
    "",
    "99999999999999999999",
  ),
);
const textUnit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom("\0", "\n", "'", '"', "\\", "$", "`", "%s", "\u202e") },
  { weight: 1, arbitrary: fc.constantFrom("é", "€", "中", "𝄞", "😀", "\uFEFF", "\uFFFF") },
);
const text = fc.string({ unit: textUnit, maxLength: 40 });
/** Rare, expensive: strings above the schemas' caps (4 KiB, 64 KiB, 1 MiB). */
const hugeText = fc.constantFrom(5_000, 70_000, 1_100_000).map((length) => "Ω".repeat(length >> 1));

function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { inner: value } : [value];
  return value;
}

const nonStrings = fc.oneof(
  { weight: 4, arbitrary: numbers },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.array(fc.oneof(numbers, fc.boolean()), { maxLength: 4 }) },
  { weight: 2, arbitrary: fc.dictionary(text, numbers, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 1_500 }).map(nested) },
  // More elements than the server accepts at all.
  { weight: 1, arbitrary: fc.constant(null).map(() => new Array(MAX_INPUT_ELEMENTS + 5).fill(0)) },
);
const strings = fc.oneof(
  { weight: 12, arbitrary: text },
  { weight: 1, arbitrary: hugeText },
);
/** Anything for a field whose strings are harmless. */
const anyValue = fc.oneof({ weight: 2, arbitrary: strings }, { weight: 3, arbitrary: nonStrings });

const safeCommand = fc.constantFrom(...Object.keys(SAFE_COMMANDS));
const safeShell = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SAFE_SHELLS.slice(0, 3)) },
  { weight: 1, arbitrary: fc.constantFrom(...SAFE_SHELLS.slice(3)) },
);
const sideEffect = fc.constantFrom(...SIDE_EFFECTS);
const sideEffects = fc.oneof(
  { weight: 16, arbitrary: fc.constant(["NONE"]) },
  { weight: 3, arbitrary: fc.array(sideEffect, { minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.constantFrom(["none"], ["NONE", "NONE"], ["BOGUS"], "NONE") },
  { weight: 1, arbitrary: fc.constant(null).map(() => new Array(65).fill("NONE")) },
);
const envName = fc.oneof(
  { weight: 20, arbitrary: text.map((name) => `FUZZ_${name}`) },
  { weight: 1, arbitrary: fc.constantFrom(...INVALID_ENV_NAMES) },
);
const env = fc.oneof(
  { weight: 12, arbitrary: fc.dictionary(envName, text, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(envName, fc.constant("x\0y"), { maxKeys: 2 }) },
  // Above the kernel's 128 KiB per string: spawning fails with E2BIG.
  { weight: 1, arbitrary: fc.dictionary(envName, hugeText, { maxKeys: 1 }) },
);
const smallMs = fc.oneof(
  fc.integer({ min: -5, max: 50 }),
  fc.constantFrom(0, -1, -1e12, 0.5),
);
const signalName = fc.oneof(
  fc.constantFrom(
    "SIGTERM",
    "TERM",
    "term",
    "sigint",
    "KILL",
    "SIGKILL",
    "SIGHUP",
    "SIGSTOP",
    "SIGCONT",
    "SIGWINCH",
    "SIGRTMIN",
    "SIGIOT",
    "9",
    "",
    "SIGNOPE",
  ),
  text,
);
const streamsValue = fc.oneof(fc.constantFrom("both", "stdout", "stderr", "BOTH", ""), text);
const unknownId = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 12, maxLength: 12 }),
  text,
  fc.constantFrom("", "proc_0123456789ab", "x".repeat(300)),
);

/** How each field of each tool may be generated: `valid` values, and `chaos` for mutations. */
interface FieldSpec {
  valid: fc.Arbitrary<unknown>;
  chaos: fc.Arbitrary<unknown>;
  required?: boolean;
}

/** Chaos for a field whose string values must stay in a safe set. */
const guarded = (safe: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 1, arbitrary: safe }, { weight: 2, arbitrary: nonStrings });
const field = (valid: fc.Arbitrary<unknown>, required = false): FieldSpec => ({
  valid,
  chaos: fc.oneof(valid, anyValue),
  required,
});
const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(arbitrary, fc.constant(null));
const idField: FieldSpec = {
  valid: unknownId,
  chaos: fc.oneof(unknownId, nonStrings),
  required: true,
};

const FIELDS: Record<string, Record<string, FieldSpec>> = {
  execute: {
    command: { valid: safeCommand, chaos: guarded(safeCommand), required: true },
    side_effects: { valid: sideEffects, chaos: fc.oneof(sideEffects, anyValue), required: true },
    cwd: field(
      nullable(fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom("/tmp", ".", "", "..", "/", "src") },
        { weight: 1, arbitrary: fc.constant("/nonexistent") },
        { weight: 1, arbitrary: text },
      )),
    ),
    env: { valid: nullable(env), chaos: fc.oneof(env, nonStrings) },
    shell: { valid: nullable(safeShell), chaos: guarded(safeShell) },
    stdin: field(nullable(fc.oneof(text, fc.constant("in\0put")))),
    close_stdin: field(fc.boolean()),
    name: field(nullable(text)),
    yield_ms: field(nullable(fc.oneof(smallMs, fc.constant(55_000), fc.constant(10 ** 9)))),
    timeout_ms: field(nullable(fc.oneof(fc.constant(0), fc.integer({ min: -3, max: 60_000 })))),
    max_output_bytes: field(nullable(fc.oneof(fc.integer({ min: -3, max: 30 }), edgeIntegers))),
    truncation: field(nullable(fc.constantFrom("head", "tail"))),
  },
  read: {
    execution_id: idField,
    since_seq: field(nullable(fc.oneof(fc.integer({ min: -3, max: 40 }), edgeIntegers))),
    max_output_bytes: field(nullable(fc.oneof(fc.integer({ min: -3, max: 30 }), edgeIntegers))),
    streams: field(streamsValue),
    tail_lines: field(nullable(fc.oneof(fc.integer({ min: -2, max: 5 }), edgeIntegers))),
  },
  write: {
    execution_id: idField,
    input: field(fc.oneof(text, fc.constant(""), fc.constant("a\0b")), true),
    newline: field(fc.boolean()),
    close_stdin: field(fc.boolean()),
  },
  wait: {
    execution_id: idField,
    timeout_ms: field(fc.oneof(smallMs, edgeIntegers)),
    max_output_bytes: field(nullable(fc.integer({ min: -3, max: 30 }))),
    since_seq: field(nullable(fc.integer({ min: -3, max: 40 }))),
    tail_lines: field(nullable(fc.integer({ min: -2, max: 5 }))),
    truncation: field(nullable(fc.constantFrom("head", "tail"))),
  },
  stop: {
    execution_id: idField,
    signal: field(signalName),
    force_after_ms: field(fc.oneof(smallMs, edgeIntegers)),
  },
  ps: {
    include_completed: field(fc.boolean()),
    limit: field(fc.oneof(fc.integer({ min: -3, max: 120 }), edgeIntegers)),
  },
  cleanup: {
    completed_older_than_ms: field(fc.oneof(fc.integer({ min: -3, max: 10 }), edgeIntegers)),
    stopped_older_than_ms: field(fc.oneof(fc.integer({ min: -3, max: 10 }), edgeIntegers)),
  },
};

/** Extra keys: misspellings of real ones and random names, never a real key. */
const extraKey = fc.oneof(
  fc.constantFrom("Command", "sideEffects", "executionId", "execution-id", "timeout", "__proto__"),
  text.map((name) => `x_${name}`),
);

function toolArgs(tool: string): fc.Arbitrary<Args> {
  const fields = FIELDS[tool];
  const record = fc.record(
    Object.fromEntries(Object.entries(fields).map(([key, spec]) => [key, spec.valid])),
    {
      requiredKeys: Object.entries(fields).filter(([, spec]) => spec.required).map(([key]) => key),
    },
  ) as fc.Arbitrary<Args>;
  const keys = Object.keys(fields);
  const mutation = fc.oneof(
    fc.constantFrom(...keys).map((key) => (args: Args) => {
      delete args[key];
    }),
    fc.constantFrom(...keys).chain((key) =>
      fields[key].chaos.map((value) => (args: Args) => {
        args[key] = value;
      })
    ),
    fc.tuple(extraKey, anyValue).map(([key, value]) => (args: Args) => {
      Object.defineProperty(args, key, { value, enumerable: true, writable: true });
    }),
  );
  return fc.tuple(record, fc.array(mutation, { maxLength: 3 })).map(([args, mutations]) => {
    const copy = { ...args };
    for (const mutate of mutations) mutate(copy);
    return copy;
  });
}

const TOOLS = Object.keys(FIELDS);
const call: fc.Arbitrary<Call> = fc.oneof(
  {
    weight: 50,
    arbitrary: fc.constantFrom("execute", ...TOOLS).chain((tool) =>
      fc.record({
        tool: fc.constant(tool),
        args: toolArgs(tool),
        target: fc.constantFrom<Target>("live", "finished", "literal"),
      })
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      tool: fc.constantFrom("exec", "EXECUTE", "shell", ""),
      args: fc.constant({}),
      target: fc.constant<Target>("literal"),
    }),
  },
);

/** Keeps every command, shell and env name in its safe set, whatever was generated. */
function sanitize(args: Args): void {
  if (typeof args.command === "string" && !(args.command in SAFE_COMMANDS)) args.command = "true";
  if (typeof args.shell === "string" && !SAFE_SHELLS.includes(args.shell)) args.shell = "/bin/sh";
  const overlay = args.env;
  if (overlay !== null && typeof overlay === "object" && !Array.isArray(overlay)) {
    for (const name of Object.keys(overlay)) {
      if (!name.startsWith("FUZZ_") && !INVALID_ENV_NAMES.includes(name)) {
        delete (overlay as Record<string, unknown>)[name];
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The oracle.

/** Array elements and object members, as the SDK counts them against its ceiling. */
function elementCount(value: unknown): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const children = Array.isArray(node) ? node : Object.values(node);
    count += children.length;
    if (count > MAX_INPUT_ELEMENTS) return count;
    stack.push(...children.filter((child) => child !== null && typeof child === "object"));
  }
  return count;
}

/**
 * What the tool receives when the server must accept `args` (its defaults filled in, integer
 * texts converted), else undefined: the tool's own input schema, applied to what arrives on the
 * wire. A `__proto__` key arrives as a member (JSON.parse makes one), so the strict schema
 * refuses it like any unknown key.
 */
function accepted(tool: string, args: Args): Args | undefined {
  const schema = INPUT_SCHEMAS[tool];
  if (schema === undefined) return undefined;
  const wire = JSON.parse(JSON.stringify(args));
  if (elementCount(wire) > MAX_INPUT_ELEMENTS) return undefined;
  const parsed = schema.safeParse(wire);
  return parsed.success ? parsed.data as Args : undefined;
}

const utf8Length = (value: unknown) =>
  typeof value === "string" ? new TextEncoder().encode(value).length : 0;

/** The response cap a call's max_output_bytes resolves to. */
function effectiveCap(requested: unknown): number {
  return typeof requested !== "number" || requested <= 0
    ? OUTPUT_CAP
    : Math.min(requested, OUTPUT_CAP);
}

// deno-lint-ignore no-explicit-any
function checkCursor(payload: Record<string, any>, args: Args, where: string): void {
  const { start_seq: start, next_seq: next, latest_seq: latest } = payload;
  assert.ok(1 <= next && next <= latest, `cursor out of range: ${where}`);
  assert.ok(start <= next, `start_seq after next_seq: ${where}`);
  const bytes = utf8Length(payload.stdout) + utf8Length(payload.stderr);
  assert.ok(bytes <= effectiveCap(args.max_output_bytes) + 3, `page over its cap: ${where}`);
  assert.equal(typeof payload.capped, "boolean", where);
  assert.equal(typeof payload.evicted, "boolean", where);
}

/** The contract's rules for a structured result of `tool` called with accepted `args`. */
// deno-lint-ignore no-explicit-any
function checkResult(tool: string, args: Args, payload: Record<string, any>, where: string) {
  const id = args.execution_id;
  const unknown = payload.error === `Unknown execution_id: ${id}`;
  switch (tool) {
    case "execute": {
      if (payload.status === "failed_to_start") {
        assert.deepEqual(Object.keys(payload), ["status", "error"], where);
        return;
      }
      assert.ok(
        ["completed", "backgrounded", "timed_out", "stopped", "failed"].includes(payload.status),
        where,
      );
      assert.equal(typeof payload.execution_id, "string", where);
      checkCursor(payload, args, where);
      const expected = SAFE_COMMANDS[args.command as string];
      if (payload.status === "completed" && !payload.capped && payload.start_seq === 1) {
        assert.equal(payload.stdout, expected.stdout, `stdout of a completed command: ${where}`);
        assert.equal(payload.stderr, expected.stderr, `stderr of a completed command: ${where}`);
        assert.equal(payload.exit_code, expected.exitCode, where);
      }
      return;
    }
    case "read":
      if (typeof payload.error === "string") {
        assert.ok(unknown || /streams|tail_lines/.test(payload.error), where);
        return;
      }
      checkCursor(payload, args, where);
      assert.equal("stdout" in payload, args.streams !== "stderr", where);
      assert.equal("stderr" in payload, args.streams !== "stdout", where);
      return;
    case "wait": {
      if (typeof payload.error === "string") {
        assert.ok(unknown || /tail_lines/.test(payload.error), where);
        return;
      }
      const budget = typeof args.timeout_ms === "number" ? args.timeout_ms : 55_000;
      assert.equal(payload.max_wait_ms, Math.max(0, Math.min(budget, 55_000)), where);
      assert.ok(["exited", "deadline_reached"].includes(payload.wait_result), where);
      checkCursor(payload, args, where);
      return;
    }
    case "write":
      assert.equal(typeof payload.ok, "boolean", where);
      if (!payload.ok) assert.equal(typeof payload.error, "string", where);
      return;
    case "stop":
      assert.equal(typeof payload.stopped, "boolean", where);
      assert.ok("error" in payload, where);
      if (!payload.stopped) assert.equal(typeof payload.error, "string", where);
      return;
    case "ps": {
      const limit = typeof args.limit === "number" ? args.limit : 50;
      assert.ok(payload.executions.length <= Math.max(0, limit), where);
      return;
    }
    case "cleanup": {
      const negative = [args.completed_older_than_ms, args.stopped_older_than_ms].some((ms) =>
        typeof ms === "number" && ms < 0
      );
      if (negative) {
        assert.deepEqual(payload, {
          removed: 0,
          error: "Cleanup age thresholds must be non-negative",
        }, where);
      } else assert.ok(Number.isInteger(payload.removed) && payload.removed >= 0, where);
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The runner.

/** Server-side state the fuzzer aims at: a live `cat` and some finished executions. */
class Targets {
  finished: string[] = [];
  #live: string | null = null;
  #session: Session;

  constructor(session: Session) {
    this.#session = session;
  }

  /** A running `cat` with stdin open: it accepts any write and echoes it to its own stdout. */
  async live(): Promise<string> {
    if (this.#live !== null) {
      const { payload } = await this.#session.call("read", {
        execution_id: this.#live,
        since_seq: 1,
        max_output_bytes: 1,
      });
      if (payload.status === "running") return this.#live;
      this.finished.push(this.#live);
    }
    const { payload } = await this.#session.call("execute", {
      command: "cat",
      side_effects: ["NONE"],
      close_stdin: false,
      yield_ms: 0,
    });
    assert.equal(payload.status, "backgrounded", JSON.stringify(payload));
    const id: string = payload.execution_id;
    this.#live = id;
    return id;
  }

  remember(payload: Record<string, unknown>): void {
    if (typeof payload.execution_id === "string" && this.finished.length < 200) {
      this.finished.push(payload.execution_id);
    }
  }
}

function describe(call: Call): string {
  const json = JSON.stringify(
    call.args,
    (_key, value) =>
      typeof value === "string" && value.length > 200 ? `<${value.length} chars>` : value,
  );
  return `${call.tool} ${json.length > 600 ? `${json.slice(0, 600)}…` : json}`;
}

linux.test("fuzzed tool arguments get a schema error or a correct result; the server keeps serving", async () => {
  const tag = marker();
  const session = await startServer({ env: { TEST_MARKER: tag } });
  const counts = { calls: 0, schemaErrors: 0, results: 0, malformed: 0 };
  const perTool: Record<string, number> = {};
  const executeStatuses: Record<string, number> = {};
  try {
    // Cache the output schemas, so the client validates every structured result.
    const { tools } = await session.client.listTools();
    // search is not fuzzed here (tests/e2e/spool_test.ts covers its errors); it is listed.
    const listed = [...TOOLS, "search"].sort();
    assert.deepEqual(tools.map((tool: { name: string }) => tool.name).sort(), listed);
    const targets = new Targets(session);
    const started = performance.now();
    console.log(`fuzz: seed ${SEED}, up to ${CALLS} calls`);

    await fc.assert(
      fc.asyncProperty(call, async (generated) => {
        const args = structuredClone(generated.args);
        const { tool } = generated;
        const literalId = args.execution_id;
        let live = false;
        if (typeof literalId === "string") {
          if (generated.target === "live") {
            args.execution_id = await targets.live();
            live = true;
          } else if (generated.target === "finished" && targets.finished.length > 0) {
            args.execution_id = targets.finished[literalId.length % targets.finished.length];
          }
        }
        if (live && (tool === "wait" || tool === "stop")) {
          const key = tool === "wait" ? "timeout_ms" : "force_after_ms";
          const budget = args[key];
          const ms = typeof budget === "string" && /^-?\d+$/.test(budget) ? Number(budget) : budget;
          if (budget === undefined || (typeof ms === "number" && ms > LIVE_BUDGET_MS)) {
            args[key] = LIVE_BUDGET_MS;
          }
        }
        sanitize(args);
        const where = describe({ ...generated, args });
        counts.calls++;
        perTool[tool] = (perTool[tool] ?? 0) + 1;
        const reply = await session.client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: 60_000,
        });
        const text = reply.content?.[0]?.type === "text" ? reply.content[0].text : "";
        const received = accepted(tool, args);
        if (received === undefined) {
          counts.schemaErrors++;
          assert.equal(reply.isError, true, `a rejected call must be an error: ${where}`);
          assert.equal(reply.structuredContent, undefined, `${where} → ${text}`);
          assert.match(text, SCHEMA_ERROR, `not a schema error: ${where} → ${text}`);
          return;
        }
        counts.results++;
        const payload = reply.structuredContent as Record<string, unknown> | undefined;
        assert.ok(payload !== undefined, `an accepted call must have a result: ${where} → ${text}`);
        assert.deepEqual(JSON.parse(text), payload, `text fallback differs: ${where}`);
        // A stop of an execution that had already ended reports its final status: no failure.
        const endedStop = tool === "stop" && typeof payload.status === "string";
        const failure = !endedStop && (payload.status === "failed_to_start" ||
          payload.ok === false || payload.stopped === false || typeof payload.error === "string");
        assert.equal(reply.isError === true, failure, `isError: ${where} → ${text}`);
        checkResult(tool, received, payload, `${where} → ${text.slice(0, 600)}`);
        if (tool === "execute") {
          targets.remember(payload);
          const status = String(payload.status);
          executeStatuses[status] = (executeStatuses[status] ?? 0) + 1;
        }
      }),
      { seed: SEED, numRuns: CALLS, interruptAfterTimeLimit: TIME_LIMIT_MS },
    );

    // Requests that are not even well-formed tool calls get JSON-RPC's invalid-params error,
    // naming the member that is wrong, not a crash.
    const malformed: unknown[] = [
      { name: "read", arguments: [1, 2] },
      { name: "read", arguments: "execution_id" },
      { name: "ps", arguments: 5 },
      { name: "ps", arguments: null },
      { name: 42, arguments: {} },
      { arguments: {} },
    ];
    for (const params of malformed) {
      counts.calls++;
      counts.malformed++;
      await assert.rejects(
        session.client.request(
          // Deliberately not a valid CallToolRequest: the type says what the wire may not get.
          { method: "tools/call", params: params as { name: string } },
          CallToolResultSchema,
        ),
        (error: unknown) =>
          error instanceof McpError &&
          (error as { code: number }).code === -32602 &&
          /params\.(arguments|name)/.test((error as Error).message),
        JSON.stringify(params),
      );
    }

    const seconds = (performance.now() - started) / 1000;
    console.log(
      `fuzz: ${counts.calls} calls in ${seconds.toFixed(1)} s (${counts.schemaErrors} schema ` +
        `errors, ${counts.results} structured results, ${counts.malformed} malformed requests); ` +
        `per tool ${JSON.stringify(perTool)}; accepted executes ${JSON.stringify(executeStatuses)}`,
    );
    assert.ok(isAlive(session.pid), "the server process is alive");
    const ps = await session.call("ps", { limit: 1 });
    assert.equal(ps.isError, false);
    const echo = await session.call("execute", {
      command: "echo still-here",
      side_effects: ["NONE"],
    });
    assert.equal(echo.payload.stdout, "still-here\n");
  } finally {
    await session.close();
    await session[Symbol.asyncDispose]();
  }
  // Everything the server started inherited its TEST_MARKER: the executions, and the guardian
  // with its helpers, which leave just after the server does.
  await eventually(() => processesWithMarker(tag).length === 0, 5_000, "no orphans").catch(() =>
    assert.deepEqual(
      processesWithMarker(tag).map((pid) =>
        `${pid}: ${Deno.readTextFileSync(`/proc/${pid}/cmdline`)}`
      ),
      [],
    )
  );
});
