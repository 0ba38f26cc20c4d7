import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import assert from "node:assert/strict";
import { eventually, startServer, type ToolReply } from "./harness.ts";
import { startHttpServer } from "./http_harness.ts";

/** One client session on either transport, and what the server pushed to it. */
interface Peer extends AsyncDisposable {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolReply>;
  logs: string[];
  updated: string[];
}

/** Loopback for both address families (the README's grant for port conditions). */
const NET_GRANT = "--allow-net=127.0.0.1,[::1]";

function observe(client: Client): { logs: string[]; updated: string[] } {
  const logs: string[] = [];
  const updated: string[] = [];
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (note: { params: { data: unknown } }) => {
      logs.push(JSON.stringify(note.params.data));
    },
  );
  client.setNotificationHandler(
    ResourceUpdatedNotificationSchema,
    (note: { params: { uri: string } }) => {
      updated.push(note.params.uri);
    },
  );
  return { logs, updated };
}

async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
  }) as CallToolResult;
  const text = result.content?.[0]?.type === "text" ? result.content[0].text : "";
  // deno-lint-ignore no-explicit-any
  const payload = (result.structuredContent ?? {}) as Record<string, any>;
  return { payload, isError: result.isError === true, text };
}

async function stdioPeer(): Promise<Peer> {
  const session = await startServer({ denoFlags: [NET_GRANT] });
  const seen = observe(session.client);
  return {
    client: session.client,
    call: (name, args = {}) => callTool(session.client, name, args),
    ...seen,
    [Symbol.asyncDispose]: () => session[Symbol.asyncDispose](),
  };
}

/** A server over HTTP; `peer()` opens one more session on it. */
async function httpServer() {
  const server = await startHttpServer();
  const clients: Client[] = [];
  return {
    async peer(): Promise<Peer> {
      const client = new Client({ name: "yieldshell-until-e2e", version: "1.0.0" });
      const seen = observe(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      clients.push(client);
      return {
        client,
        call: (name, args = {}) => callTool(client, name, args),
        ...seen,
        [Symbol.asyncDispose]: () => client.close().catch(() => {}),
      };
    },
    async [Symbol.asyncDispose]() {
      for (const client of clients) await client.close().catch(() => {});
      await server.stop();
    },
  };
}

const TRANSPORTS = [
  { name: "stdio", open: () => stdioPeer() },
  {
    name: "http",
    open: async (): Promise<Peer> => {
      const server = await httpServer();
      const peer = await server.peer();
      return { ...peer, [Symbol.asyncDispose]: () => server[Symbol.asyncDispose]() };
    },
  },
];

/** Starts `command` in the background; its execution id and the output the start returned. */
async function started(peer: Peer, command: string, extra: Record<string, unknown> = {}) {
  const reply = await peer.call("execute", {
    command,
    side_effects: ["NONE"],
    yield_ms: 0,
    ...extra,
  });
  assert.equal(reply.payload.status, "backgrounded", reply.text);
  return { id: reply.payload.execution_id as string, stdout: reply.payload.stdout as string };
}

/** Starts `command` in the background and returns its execution id. */
async function background(peer: Peer, command: string, extra: Record<string, unknown> = {}) {
  return (await started(peer, command, extra)).id;
}

/** A loopback port nothing listens on right now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

for (const transport of TRANSPORTS) {
  Deno.test(`until (${transport.name}): each condition ends the wait`, async (t) => {
    await using peer = await transport.open();

    await t.step("output: soon after the line, the page ends with it", async () => {
      const { id, stdout: before } = await started(
        peer,
        'echo booting; sleep 0.4; echo "listening $(date +%s%3N)"; echo after; sleep 30',
      );
      const reply = await peer.call("wait", {
        execution_id: id,
        timeout_ms: 60_000,
        until: { output: "^listening (\\d+)$" },
      });
      const repliedAt = Date.now();
      const { payload } = reply;
      assert.equal(payload.wait_result, "output_matched", reply.text);
      assert.equal(payload.status, "running");
      assert.equal(payload.match.stream, "stdout");
      assert.match(payload.match.text, /^listening \d+$/);
      const printedAt = Number(payload.match.text.split(" ")[1]);
      // Generous: the machine is shared; the real figure is the bench's.
      assert.ok(repliedAt - printedAt < 5_000, `${repliedAt - printedAt} ms after the line`);
      assert.ok(payload.stdout.endsWith(`${payload.match.text}\n`), payload.stdout);
      assert.equal(before + payload.stdout, `booting\n${payload.match.text}\n`);
      // The cursor stopped after the matched line: the next read starts there.
      let rest = "";
      await eventually(
        async () => {
          rest += (await peer.call("read", { execution_id: id })).payload.stdout;
          return rest.length >= "after\n".length;
        },
        20_000,
        "the line after the match",
      );
      assert.equal(rest, "after\n");
      await peer.call("stop", { execution_id: id, signal: "SIGKILL" });
    });

    await t.step("idle: a program waiting for stdin", async () => {
      const { id, stdout: before } = await started(
        peer,
        'printf "name? "; read name; echo "hi $name"',
        { close_stdin: false },
      );
      const reply = await peer.call("wait", {
        execution_id: id,
        timeout_ms: 60_000,
        until: { idle_ms: 300 },
      });
      assert.equal(reply.payload.wait_result, "idle", reply.text);
      assert.equal(reply.payload.status, "running");
      assert.equal(before + reply.payload.stdout, "name? ");
      await peer.call("write", { execution_id: id, input: "ada", newline: true });
      const end = await peer.call("wait", { execution_id: id, timeout_ms: 60_000 });
      assert.equal(end.payload.wait_result, "exited");
      assert.equal(end.payload.stdout, "hi ada\n");
    });

    await t.step("port: a python3 http.server on loopback", async () => {
      const port = freePort();
      const id = await background(
        peer,
        `sleep 0.3; exec python3 -m http.server ${port} --bind 127.0.0.1`,
      );
      const reply = await peer.call("wait", {
        execution_id: id,
        timeout_ms: 60_000,
        until: { port, host: "127.0.0.1" },
      });
      assert.equal(reply.payload.wait_result, "port_open", reply.text);
      assert.equal(reply.payload.status, "running");
      const response = await fetch(`http://127.0.0.1:${port}/`);
      await response.body?.cancel();
      assert.equal(response.status, 200);
      await peer.call("stop", { execution_id: id });
    });

    await t.step("bytes: a given number of new bytes", async () => {
      const id = await background(peer, "sleep 0.2; printf 0123456789; sleep 30");
      const reply = await peer.call("wait", {
        execution_id: id,
        timeout_ms: 60_000,
        until: { bytes: 4 },
      });
      assert.equal(reply.payload.wait_result, "bytes_reached", reply.text);
      await peer.call("stop", { execution_id: id, signal: "SIGKILL" });
    });

    await t.step("an execution that already ended answers at once", async () => {
      // Slow enough to be backgrounded by yield_ms 0 even on a loaded machine.
      const id = await background(peer, "sleep 1; echo done");
      const ended = await peer.call("wait", { execution_id: id, timeout_ms: 60_000 });
      assert.equal(ended.payload.wait_result, "exited");
      const reply = await peer.call("wait", {
        execution_id: id,
        timeout_ms: 100_000,
        until: { idle_ms: 90_000, output: "never" },
      });
      assert.equal(reply.payload.wait_result, "exited", reply.text);
      assert.ok(reply.payload.waited_ms < 90_000, `waited ${reply.payload.waited_ms} ms`);
    });
  });

  Deno.test(`until (${transport.name}): execute returns backgrounded at the match`, async (t) => {
    await using peer = await transport.open();

    await t.step("backgrounded once the line appears", async () => {
      const reply = await peer.call("execute", {
        command: "echo starting; sleep 0.3; echo 'ready in 12 ms'; sleep 30",
        side_effects: ["NONE"],
        yield_ms: 60_000,
        until: { output: "ready in" },
      });
      const { payload } = reply;
      assert.equal(payload.status, "backgrounded", reply.text);
      assert.equal(payload.until_result, "output_matched");
      assert.equal(payload.match.text, "ready in");
      assert.equal(payload.stdout, "starting\nready in 12 ms\n");
      await peer.call("stop", { execution_id: payload.execution_id, signal: "SIGKILL" });
    });

    await t.step("completed when it exits first", async () => {
      const reply = await peer.call("execute", {
        command: "echo quick",
        side_effects: ["NONE"],
        yield_ms: 60_000,
        until: { output: "ready in" },
      });
      assert.equal(reply.payload.status, "completed", reply.text);
      assert.equal(reply.payload.until_result, undefined);
      assert.equal(reply.payload.stdout, "quick\n");
    });
  });

  Deno.test(`until (${transport.name}): bad input errs before anything waits`, async (t) => {
    await using peer = await transport.open();
    const id = await background(peer, "sleep 30");
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["invalid regex", { output: "(" }, /regular expression|regex/i],
      ["unknown condition", { sound: "beep" }, /Unknown until condition 'sound'/],
      ["port out of range", { port: 70_000 }, /until\.port must be 1 to 65535/],
      ["non-loopback host", { port: 80, host: "10.0.0.1" }, /loopback/i],
    ];
    for (const [what, until, error] of cases) {
      await t.step(what, async () => {
        const reply = await peer.call("wait", { execution_id: id, timeout_ms: 100_000, until });
        assert.equal(reply.isError, true, reply.text);
        assert.match(reply.text, error);
        const started = await peer.call("execute", {
          command: "echo should-not-run",
          side_effects: ["NONE"],
          until,
        });
        assert.equal(started.isError, true, started.text);
        assert.match(started.text, error);
      });
    }
    await t.step("execute with until but no yield window", async () => {
      const reply = await peer.call("execute", {
        command: "echo should-not-run",
        side_effects: ["NONE"],
        yield_ms: 0,
        until: { output: "x" },
      });
      assert.equal(reply.isError, true, reply.text);
      assert.match(reply.payload.error, /until needs a yield window; pass yield_ms above 0/);
    });
    const ps = await peer.call("ps", {});
    assert.equal(ps.payload.executions.length, 1, "nothing else started");
    assert.equal(ps.payload.executions[0].status, "running", "the wait never blocked");
    await peer.call("stop", { execution_id: id, signal: "SIGKILL" });
  });
}

Deno.test("until: a port condition without the net grant names the flag", async () => {
  await using session = await startServer();
  const reply = await session.call("execute", {
    command: "echo should-not-run",
    side_effects: ["NONE"],
    until: { port: 8080 },
  });
  assert.equal(reply.isError, true, reply.text);
  assert.match(reply.payload.error, /--allow-net=127\.0\.0\.1,\[::1\]/);
});

for (const transport of TRANSPORTS) {
  Deno.test(`pushes (${transport.name}): exit log and resource update`, async () => {
    await using peer = await transport.open();
    const id = await background(peer, "read line; echo bye", { close_stdin: false });
    const uri = `yieldshell://executions/${id}`;
    await peer.client.subscribeResource({ uri });
    await peer.call("write", { execution_id: id, input: "go", newline: true, close_stdin: true });
    await eventually(() => peer.logs.some((log) => log.includes(id)), 20_000, "the exit log");
    assert.match(peer.logs.find((log) => log.includes(id))!, /completed|exit code 0/);
    await eventually(() => peer.updated.includes(uri), 20_000, "the resource update");
    const read = await peer.client.readResource({ uri });
    const view = JSON.parse((read.contents[0] as { text: string }).text);
    assert.equal(view.status, "completed");
    assert.match(view.stdout, /bye/);
  });
}

Deno.test("pushes (http): another session hears nothing", async () => {
  await using server = await httpServer();
  const a = await server.peer();
  const b = await server.peer();
  const id = await background(a, "read line; echo bye", { close_stdin: false });
  await a.client.subscribeResource({ uri: `yieldshell://executions/${id}` });
  const listed = await b.client.listResources();
  assert.equal(listed.resources.length, 0, "b lists none of a's executions");
  await a.call("write", { execution_id: id, input: "go", newline: true, close_stdin: true });
  await eventually(() => a.logs.some((log) => log.includes(id)), 20_000, "a's exit log");
  await eventually(() => a.updated.length > 0, 20_000, "a's resource update");
  // A round trip on b after a heard: anything pushed to b would have been sent by now.
  await b.call("ps", {});
  assert.deepEqual(b.logs, []);
  assert.deepEqual(b.updated, []);
  const unread = await b.client.readResource({ uri: `yieldshell://executions/${id}` }).then(
    () => "read",
    (error: unknown) => String(error),
  );
  assert.notEqual(unread, "read", "b cannot read a's execution");
});

Deno.test("until: progress keeps flowing while a condition is awaited", async () => {
  await using session = await startServer({ env: { YIELDSHELL_KEEPALIVE_INTERVAL_MS: "100" } });
  const start = await session.call("execute", {
    command: "read go; echo ready",
    side_effects: ["NONE"],
    yield_ms: 0,
    close_stdin: false,
  });
  const id = start.payload.execution_id;
  const notes: number[] = [];
  const twoNotes = Promise.withResolvers<void>();
  const waited = session.client.callTool(
    {
      name: "wait",
      arguments: { execution_id: id, timeout_ms: 60_000, until: { output: "ready" } },
    },
    undefined,
    {
      timeout: 120_000,
      onprogress: (note: { progress: number }) => {
        notes.push(note.progress);
        if (notes.length === 2) twoNotes.resolve();
      },
    },
  );
  // Only once heartbeats arrived is the line printed: the wait was still waiting for it.
  await twoNotes.promise;
  await session.call("write", { execution_id: id, input: "go", newline: true });
  const result = await waited as CallToolResult;
  const payload = result.structuredContent as { wait_result: string; stdout: string };
  assert.equal(payload.wait_result, "output_matched");
  assert.equal(payload.stdout, "ready\n");
  assert.ok(notes[1] > notes[0], "progress grows");
});
