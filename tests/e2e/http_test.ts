import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { ToolReply as HarnessToolReply } from "./harness.ts";
import { connectHttp, MCP_ACCEPT, postJson, startHttpServer } from "./http_harness.ts";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, Progress, Tool } from "@modelcontextprotocol/sdk/types.js";
import { createHttpHandler, type HttpConfig } from "../../src/transports/http_handler.ts";
import { constantTimeEqual } from "../../src/transports/http_security.ts";
import { eventually, marker, processesWithMarker } from "./harness.ts";
import { linux, posix } from "../os.ts";

// fileURLToPath, not URL.pathname: on Windows that would be "/C:/...", neither a cwd nor a path.
const root = fileURLToPath(new URL("../../", import.meta.url));
const NONE = ["NONE"];
const PROTOCOL_VERSION = "2025-06-18";
const MIB = 1024 * 1024;

/** A tool reply as harness.ts shapes it, without the JSON text. */
type ToolReply = Omit<HarnessToolReply, "text">;

const initialize = (id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
});

/** Initializes a session with raw requests; returns the headers later requests need. */
async function rawSession(url: string): Promise<Record<string, string>> {
  const init = await postJson(url, initialize());
  assert.equal(init.status, 200, init.text);
  const headers = {
    "Mcp-Session-Id": init.headers.get("mcp-session-id") ?? "",
    "Mcp-Protocol-Version": PROTOCOL_VERSION,
  };
  const initialized = await postJson(url, { jsonrpc: "2.0", method: "notifications/initialized" }, {
    ...headers,
  });
  assert.equal(initialized.status, 202);
  return headers;
}

/** The JSON-RPC error message of an error response body. */
function errorMessage(text: string): string {
  const body = JSON.parse(text);
  assert.equal(body.jsonrpc, "2.0");
  assert.equal(typeof body.error.code, "number");
  return body.error.message;
}

/** An HTTP/1.1 request over a raw socket, so that `Host` can be anything (fetch sets its own). */
async function rawHttp(port: number, head: string[]): Promise<{ status: number; text: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode([...head, "Connection: close", "", ""].join("\r\n")));
  const text = await new Response(conn.readable).text();
  return { status: Number(text.split(" ")[1]), text };
}

posix.test("http: tools/list and every tool over a real loopback socket", async () => {
  await using server = await startHttpServer();
  await using s = await connectHttp(server.url);
  assert.match(s.sessionId, /^[0-9a-f-]{36}$/);
  const { tools } = await s.client.listTools();
  assert.deepEqual(
    (tools as Tool[]).map((tool) => tool.name).sort(),
    ["cleanup", "execute", "ps", "read", "search", "stop", "wait", "write"],
  );

  const quick = await s.call("execute", { command: "echo hello", side_effects: NONE });
  assert.equal(quick.payload.status, "completed");
  assert.equal(quick.payload.stdout, "hello\n");
  const reread = await s.call("read", { execution_id: quick.payload.execution_id, since_seq: 1 });
  assert.equal(reread.payload.stdout, "hello\n");

  const cat = await s.call("execute", {
    command: "cat",
    side_effects: NONE,
    close_stdin: false,
    yield_ms: 100,
  });
  assert.equal(cat.payload.status, "backgrounded");
  const wrote = await s.call("write", {
    execution_id: cat.payload.execution_id,
    input: "over http",
    newline: true,
    close_stdin: true,
  });
  assert.equal(wrote.payload.ok, true);
  const waited = await s.call("wait", { execution_id: cat.payload.execution_id });
  assert.equal(waited.payload.wait_result, "exited");
  assert.equal(waited.payload.stdout, "over http\n");

  const sleeper = await s.call("execute", { command: "sleep 30", side_effects: NONE, yield_ms: 0 });
  const stopped = await s.call("stop", { execution_id: sleeper.payload.execution_id });
  assert.equal(stopped.payload.stopped, true);

  const ps = await s.call("ps");
  assert.deepEqual(
    ps.payload.executions.map((e: { execution_id: string }) => e.execution_id).sort(),
    [quick, cat, sleeper].map((r) => r.payload.execution_id).sort(),
  );
  const cleanup = await s.call("cleanup", {
    completed_older_than_ms: 0,
    stopped_older_than_ms: 0,
  });
  assert.equal(cleanup.payload.removed, 3);
});

posix.test("http: two concurrent sessions do not see each other's executions", async () => {
  await using server = await startHttpServer();
  await using a = await connectHttp(server.url);
  await using b = await connectHttp(server.url);
  assert.notEqual(a.sessionId, b.sessionId);
  const [mine, theirs] = await Promise.all([
    a.call("execute", { command: "sleep 30", side_effects: NONE, yield_ms: 0, name: "a" }),
    b.call("execute", { command: "echo b", side_effects: NONE }),
  ]);
  const id = mine.payload.execution_id;
  const idsOf = (reply: ToolReply) =>
    reply.payload.executions.map((e: { execution_id: string }) => e.execution_id);
  assert.deepEqual(idsOf(await a.call("ps")), [id]);
  assert.deepEqual(idsOf(await b.call("ps")), [theirs.payload.execution_id]);
  const unknown = `Unknown execution_id: ${id}`;
  for (const [tool, args] of [["read", {}], ["wait", { timeout_ms: 0 }], ["stop", {}]] as const) {
    const reply = await b.call(tool, { execution_id: id, ...args });
    assert.equal(reply.isError, true, `${tool} from the other session is an error`);
    assert.match(reply.payload.error, new RegExp(`^${unknown}`));
  }
  const write = await b.call("write", { execution_id: id, input: "x" });
  assert.equal(write.payload.ok, false);
  assert.equal((await a.call("read", { execution_id: id })).payload.status, "running");
  assert.equal((await a.call("stop", { execution_id: id })).payload.stopped, true);
});

posix.test("http: progress notifications arrive on the request's own SSE stream", async (t) => {
  await using server = await startHttpServer({ env: { YIELDSHELL_KEEPALIVE_INTERVAL_MS: "100" } });
  const command = "for i in 1 2 3 4 5 6; do echo tick$i; sleep 0.15; done";

  await t.step("through the SDK client", async () => {
    await using s = await connectHttp(server.url);
    const progress: Progress[] = [];
    const result = await s.client.callTool(
      { name: "execute", arguments: { command, side_effects: NONE, yield_ms: 10_000 } },
      undefined,
      { onprogress: (p: Progress) => progress.push(p) },
    ) as CallToolResult;
    assert.equal((result.structuredContent as { status: string }).status, "completed");
    assert.ok(progress.length >= 3, `got ${progress.length} progress notifications`);
    assert.match(progress.at(-1)?.message ?? "", /bytes of output so far; last line: tick\d/);
    for (let i = 1; i < progress.length; i++) {
      assert.ok(progress[i].progress > progress[i - 1].progress);
    }
  });

  await t.step("on the POST response, before the result (raw SSE)", async () => {
    const headers = await rawSession(server.url);
    const call = await postJson(server.url, {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: {
        name: "execute",
        arguments: { command, side_effects: NONE, yield_ms: 10_000 },
        _meta: { progressToken: "tok" },
      },
    }, headers);
    assert.equal(call.status, 200);
    assert.equal(call.headers.get("content-type"), "text/event-stream");
    const messages = call.text.split("\n").filter((line) => line.startsWith("data: ")).map((
      line,
    ) => JSON.parse(line.slice(6)));
    const progress = messages.filter((m) => m.method === "notifications/progress");
    assert.ok(progress.length >= 3, call.text);
    assert.ok(progress.every((m) => m.params.progressToken === "tok"));
    assert.equal(messages.at(-1).id, 7, "the result comes last and ends the stream");
  });
});

linux.test("http: cancelling an in-flight execute stops its command", async () => {
  await using server = await startHttpServer();
  await using s = await connectHttp(server.url);
  const tag = marker();
  const cancel = new AbortController();
  const call = s.client.callTool(
    {
      name: "execute",
      arguments: { command: "sleep 60", side_effects: NONE, yield_ms: 30_000, env: { T: tag } },
    },
    undefined,
    { signal: cancel.signal },
  );
  await eventually(() => processesWithMarker(tag).length > 0, 10_000, "the command to start");
  cancel.abort("changed my mind");
  await assert.rejects(call);
  await eventually(() => processesWithMarker(tag).length === 0, 15_000, "the command to stop");
  const status = async () => (await s.call("ps")).payload.executions[0].status;
  await eventually(async () => await status() === "stopped", 10_000, "the record to say stopped");
});

linux.test("http: DELETE ends a session and stops its executions; its id then gets 404", async () => {
  await using server = await startHttpServer();
  await using s = await connectHttp(server.url);
  await using other = await connectHttp(server.url);
  const tag = marker();
  const otherTag = marker();
  await s.call("execute", {
    command: "sleep 60",
    side_effects: NONE,
    yield_ms: 0,
    env: { T: tag },
  });
  await other.call("execute", {
    command: "sleep 60",
    side_effects: NONE,
    yield_ms: 0,
    env: { T: otherTag },
  });
  await eventually(() => processesWithMarker(tag).length > 0, 10_000, "the command to start");
  const sessionId = s.sessionId;
  await s.transport.terminateSession();
  await eventually(() => processesWithMarker(tag).length === 0, 15_000, "the command to stop");
  assert.ok(processesWithMarker(otherTag).length > 0, "the other session's command lives on");
  const after = await postJson(server.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, {
    "Mcp-Session-Id": sessionId,
    "Mcp-Protocol-Version": PROTOCOL_VERSION,
  });
  assert.equal(after.status, 404);
  assert.match(errorMessage(after.text), /^Session not found: .*start a new session/);
  assert.match(server.stderr(), new RegExp(`HTTP session ${sessionId} ended: the client ended it`));
});

Deno.test("http: Host, Origin, session, path, method, size and parse errors", async (t) => {
  await using server = await startHttpServer({ args: ["--allowed-origin", "https://app.example"] });
  const { url, port } = server;
  const session = await rawSession(url);

  await t.step("403 for a foreign Host; loopback names with or without port pass", async () => {
    const request = (host: string) =>
      rawHttp(port, [`DELETE /mcp HTTP/1.1`, `Host: ${host}`, `Mcp-Session-Id: none`]);
    const evil = await request("evil.example.com");
    assert.equal(evil.status, 403);
    assert.match(evil.text, /Forbidden: Host header \\"evil.example.com\\" names neither/);
    assert.equal((await request(`evil.example.com:${port}`)).status, 403);
    for (const host of ["localhost", `localhost:${port}`, `127.0.0.1:${port}`, "[::1]"]) {
      assert.equal((await request(host)).status, 404, `${host} reaches session routing`);
    }
  });

  await t.step(
    "403 for a foreign Origin; loopback origins pass; only listed origins get CORS headers",
    async () => {
      const evil = await postJson(url, initialize(), { Origin: "http://evil.example.com" });
      assert.equal(evil.status, 403);
      assert.match(errorMessage(evil.text), /Origin "http:\/\/evil.example.com" is not allowed/);
      assert.equal((await postJson(url, initialize(), { Origin: "null" })).status, 403);
      const ping = (origin: string) =>
        postJson(url, { jsonrpc: "2.0", id: 3, method: "ping" }, { ...session, Origin: origin });
      // Any local web page has a loopback origin: it is not refused, but its browser gets no
      // CORS headers, so it can neither read a reply nor send Mcp-Session-Id.
      for (const origin of [`http://localhost:${port}`, "http://127.0.0.1:3000"]) {
        const local = await ping(origin);
        assert.equal(local.status, 200, origin);
        assert.equal(local.headers.get("access-control-allow-origin"), null, origin);
        const preflight = await fetch(url, { method: "OPTIONS", headers: { Origin: origin } });
        await preflight.body?.cancel();
        assert.equal(preflight.headers.get("access-control-allow-origin"), null, origin);
        assert.equal(preflight.headers.get("access-control-allow-headers"), null, origin);
      }
      const listed = await ping("https://app.example");
      assert.equal(listed.status, 200);
      assert.equal(listed.headers.get("access-control-allow-origin"), "https://app.example");
      const preflight = await fetch(url, {
        method: "OPTIONS",
        headers: { Origin: "https://app.example" },
      });
      await preflight.body?.cancel();
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get("access-control-allow-origin"), "https://app.example");
      assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /Mcp-Session-Id/);
    },
  );

  await t.step("400 without Mcp-Session-Id after initialize; 404 for an unknown one", async () => {
    const missing = await postJson(url, { jsonrpc: "2.0", id: 4, method: "tools/list" });
    assert.equal(missing.status, 400);
    assert.match(errorMessage(missing.text), /Mcp-Session-Id header is required; send an init/);
    const unknown = await postJson(url, { jsonrpc: "2.0", id: 5, method: "tools/list" }, {
      "Mcp-Session-Id": "no-such-session",
    });
    assert.equal(unknown.status, 404);
    assert.equal(JSON.parse(unknown.text).error.code, -32001);
  });

  await t.step("404 off /mcp, 405 for other methods, 400 for a body that is not JSON", async () => {
    const elsewhere = await postJson(url.replace("/mcp", "/other"), initialize());
    assert.equal(elsewhere.status, 404);
    assert.match(errorMessage(elsewhere.text), /the MCP endpoint is \/mcp/);
    const put = await fetch(url, { method: "PUT", body: "{}" });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get("allow"), "GET, POST, DELETE");
    await put.body?.cancel();
    const garbage = await postJson(url, "{not json", session);
    assert.equal(garbage.status, 400);
    assert.equal(JSON.parse(garbage.text).error.code, -32700);
  });

  await t.step("413 over 4 MiB, by Content-Length and while reading a chunked body", async () => {
    const big = JSON.stringify({ ...initialize(), pad: "x".repeat(4 * MIB) });
    const declared = await postJson(url, big, session);
    assert.equal(declared.status, 413);
    assert.match(errorMessage(declared.text), /^Payload too large: request bodies are limited/);
    let sent = 0;
    const chunk = new Uint8Array(256 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Never ends on its own: the server must stop reading once past the limit.
        sent += chunk.byteLength;
        controller.enqueue(chunk);
        if (sent > 64 * MIB) controller.close();
      },
    });
    const chunked = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: MCP_ACCEPT, ...session },
      body: stream,
    });
    assert.equal(chunked.status, 413);
    await chunked.body?.cancel();
    assert.ok(sent < 64 * MIB, `the server stopped reading (client sent ${sent} bytes)`);
    const exactly = JSON.stringify({ jsonrpc: "2.0", id: 6, method: "ping" });
    assert.equal((await postJson(url, exactly.padEnd(4 * MIB, " "), session)).status, 200);
  });
});

Deno.test("http: bearer token, session limit and concurrent request limit", async (t) => {
  const token = "s3cret-token-for-tests";
  await using server = await startHttpServer({
    env: { YIELDSHELL_AUTH_TOKEN: token },
    args: ["--max-http-sessions", "2", "--max-concurrent-requests", "2"],
  });
  const auth = { Authorization: `Bearer ${token}` };

  await t.step("401 with WWW-Authenticate without the right token", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: "Bearer wrong" },
      { Authorization: token },
    ];
    for (const headers of attempts) {
      const reply = await postJson(server.url, initialize(), headers);
      assert.equal(reply.status, 401);
      assert.match(reply.headers.get("www-authenticate") ?? "", /^Bearer /);
      assert.match(errorMessage(reply.text), /^Unauthorized: .*Authorization: Bearer <token>/);
    }
  });

  await using a = await connectHttp(server.url, auth);
  await using b = await connectHttp(server.url, auth);

  await t.step("503 with Retry-After past the session limit", async () => {
    const third = await postJson(server.url, initialize(), auth);
    assert.equal(third.status, 503);
    assert.equal(third.headers.get("retry-after"), "30");
    assert.match(errorMessage(third.text), /^Too many sessions: .*limit of 2 .*DELETE/);
  });

  // Tells that both commands started, and later stopped, by their markers in /proc.
  await linux.step(t, "503 with Retry-After past the concurrent request limit", async () => {
    const tags = [marker(), marker()];
    const cancel = new AbortController();
    const blocking = [a, b].map((s, i) =>
      s.client.callTool(
        {
          name: "execute",
          arguments: {
            command: "sleep 30",
            side_effects: NONE,
            yield_ms: 30_000,
            env: { T: tags[i] },
          },
        },
        undefined,
        { signal: cancel.signal },
      ).catch(() => "cancelled")
    );
    const started = () => tags.every((tag) => processesWithMarker(tag).length > 0);
    const stopped = () => tags.every((tag) => processesWithMarker(tag).length === 0);
    try {
      await eventually(started, 10_000, "both commands");
      const busy = await postJson(server.url, { jsonrpc: "2.0", id: 9, method: "ping" }, {
        ...auth,
        "Mcp-Session-Id": a.sessionId,
        "Mcp-Protocol-Version": PROTOCOL_VERSION,
      });
      assert.equal(busy.status, 503);
      assert.equal(busy.headers.get("retry-after"), "1");
      assert.match(errorMessage(busy.text), /^Server busy: 2 requests are already in progress/);
    } finally {
      cancel.abort();
      assert.deepEqual(await Promise.all(blocking), ["cancelled", "cancelled"]);
    }
    await eventually(stopped, 15_000, "cancelled commands");
    assert.equal((await a.call("ps")).isError, false, "requests are served again");
  });
});

linux.test("http: SIGTERM stops every session's executions and exits 0 with nothing orphaned", async () => {
  const server = await startHttpServer({ env: { YIELDSHELL_KEEPALIVE_INTERVAL_MS: "100" } });
  const tag = marker();
  try {
    await using a = await connectHttp(server.url);
    await using b = await connectHttp(server.url);
    const ids: string[] = [];
    for (const s of [a, b]) {
      const { payload } = await s.call("execute", {
        command: "sleep 60 & sleep 60 & wait",
        side_effects: NONE,
        yield_ms: 0,
        env: { T: tag },
      });
      ids.push(payload.execution_id);
    }
    await eventually(() => processesWithMarker(tag).length >= 6, 10_000, "children");
    // A blocking request in flight must not hold the shutdown up, and gets an error reply.
    const waiting = Promise.withResolvers<void>();
    const inFlight = a.client.callTool(
      { name: "wait", arguments: { execution_id: ids[0], timeout_ms: 50_000 } },
      undefined,
      { onprogress: () => waiting.resolve() },
    ).then(() => "answered", (error: Error) => error.message);
    await waiting.promise;
    const status = await server.stop("SIGTERM");
    assert.match(await inFlight, /Server shutting down: this request was interrupted/);
    assert.equal(status.code, 0, server.stderr());
    assert.deepEqual(processesWithMarker(tag), []);
    await assert.rejects(fetch(server.url), "the listener is closed");
    assert.match(server.stderr(), /shutting down \(SIGTERM\)/);
  } finally {
    await server.stop("SIGKILL");
  }
});

Deno.test("http: startup refuses a missing net grant and a non-loopback bind without token", async (t) => {
  const run = async (args: string[]) => {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...args],
      cwd: root,
      env: { NO_COLOR: "1", YIELDSHELL_AUTH_TOKEN: "" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    return { code, stderr: new TextDecoder().decode(stderr) };
  };
  await t.step("no --allow-net for the address", async () => {
    const { code, stderr } = await run(["-P=server", "main.ts", "--transport", "http"]);
    assert.equal(code, 1);
    assert.match(stderr, /--allow-net=127\.0\.0\.1:8000 /);
  });
  await t.step("a grant for another port is not enough", async () => {
    const { code, stderr } = await run([
      "-P=server",
      "--allow-net=127.0.0.1:8000",
      "main.ts",
      "--transport",
      "http",
      "--port",
      "8001",
    ]);
    assert.equal(code, 1);
    assert.match(stderr, /--allow-net=127\.0\.0\.1:8001 /);
  });
  await t.step("0.0.0.0 without an auth token", async () => {
    const { code, stderr } = await run([
      "-P=server",
      "--allow-net",
      "main.ts",
      "--transport",
      "http",
      "--host",
      "0.0.0.0",
    ]);
    assert.equal(code, 2);
    assert.match(stderr, /Refusing to bind 0\.0\.0\.0 without an auth token/);
  });
});

// The handler without a socket: Request in, Response out.

function fakeApp(live: { count: number }, closed: string[]) {
  return {
    createSession: (owner: string) => ({
      server: new McpServer({ name: "fake", version: "0" }, { capabilities: { tools: {} } }),
      hasLiveWork: () => live.count > 0,
      close: () => {
        closed.push(owner);
        return Promise.resolve();
      },
    }),
  };
}

const quiet = { info() {}, warn() {}, error() {} };

function handlerConfig(overrides: Partial<HttpConfig> = {}): HttpConfig {
  return {
    host: "127.0.0.1",
    port: 8000,
    authToken: null,
    allowedOrigins: [],
    maxHttpSessions: 4,
    maxConcurrentRequests: 8,
    requestReadTimeoutMs: 30_000,
    ...overrides,
  };
}

function request(body: unknown, headers: Record<string, string> = {}, host = "127.0.0.1:8000") {
  return new Request(`http://${host}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: MCP_ACCEPT, Host: host, ...headers },
    body: JSON.stringify(body),
  });
}

Deno.test("http handler: a wildcard bind accepts IP-literal Hosts but not DNS names", async () => {
  const handler = createHttpHandler({
    app: fakeApp({ count: 0 }, []),
    config: handlerConfig({ host: "0.0.0.0", authToken: "t" }),
    logger: quiet,
  });
  const auth = { Authorization: "Bearer t" };
  const status = async (host: string) => (await handler(request({}, auth, host))).status;
  assert.equal(await status("192.168.1.5:8000"), 400, "reaches session routing");
  assert.equal(await status("[fe80::1]:8000"), 400);
  assert.equal(await status("localhost:8000"), 400);
  assert.equal(await status("attacker.example:8000"), 403);
  await handler.close();
});

Deno.test("http handler: idle sessions without live executions expire", async () => {
  let clock = 0;
  const live = { count: 1 };
  const closed: string[] = [];
  const handler = createHttpHandler({
    app: fakeApp(live, closed),
    config: handlerConfig(),
    logger: quiet,
    idleSessionMs: 1_000,
    now: () => clock,
  });
  const init = await handler(request(initialize()));
  await init.text();
  const sessionId = init.headers.get("mcp-session-id") ?? "";
  assert.equal(handler.sessionCount(), 1);
  clock = 5_000;
  assert.equal(await handler.expireIdle(), 0, "a live execution keeps the session");
  live.count = 0;
  clock = 5_500;
  const ping = await handler(request({ jsonrpc: "2.0", id: 2, method: "ping" }, {
    "Mcp-Session-Id": sessionId,
  }));
  await ping.text();
  assert.equal(ping.status, 200);
  clock = 6_000;
  assert.equal(await handler.expireIdle(), 0, "a request resets the idle clock");
  clock = 6_500;
  assert.equal(await handler.expireIdle(), 1);
  assert.deepEqual(closed, [sessionId]);
  const gone = await handler(request({ jsonrpc: "2.0", id: 3, method: "ping" }, {
    "Mcp-Session-Id": sessionId,
  }));
  assert.equal(gone.status, 404);
  await gone.text();
  await handler.close();
});

Deno.test("constantTimeEqual compares whole tokens of any length", () => {
  assert.equal(constantTimeEqual("token", "token"), true);
  assert.equal(constantTimeEqual("token", "tokem"), false);
  assert.equal(constantTimeEqual("token", "token-longer"), false);
  assert.equal(constantTimeEqual("", ""), true);
});
