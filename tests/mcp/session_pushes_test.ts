import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ProtocolServer } from "../../src/protocol/protocol_server.ts";
import { attachSessionPushes } from "../../src/mcp/session_pushes.ts";
import { ManualClock } from "../core/manual_clock.ts";
import { FakeRegistry } from "./fake_registry.ts";

interface Received {
  method: string;
  // deno-lint-ignore no-explicit-any
  params?: any;
}

/** Notifications a client received, with a way to await the next ones. */
class Inbox {
  readonly all: Received[] = [];
  #waiters: { method: string; count: number; resolve: () => void }[] = [];

  push(notification: Received): void {
    this.all.push(notification);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (this.of(waiter.method).length < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  }

  of(method: string): Received[] {
    return this.all.filter((notification) => notification.method === method);
  }

  /** Resolves once `count` notifications of `method` arrived in all. */
  until(method: string, count: number): Promise<Received[]> {
    if (this.of(method).length >= count) return Promise.resolve(this.of(method));
    return new Promise((resolve) => {
      this.#waiters.push({ method, count, resolve: () => resolve(this.of(method)) });
    });
  }
}

interface Session extends AsyncDisposable {
  server: ProtocolServer;
  client: Client;
  inbox: Inbox;
  /** A round trip: notifications sent before it have been received when it returns. */
  settle(): Promise<void>;
}

async function connect(
  registry: FakeRegistry,
  owner: string,
  options: { channel?: boolean; clock?: ManualClock } = {},
): Promise<Session> {
  const server = new ProtocolServer({ name: "yieldshell-test", version: "1.0.0" });
  attachSessionPushes(server, registry, {
    owner,
    clock: options.clock ?? new ManualClock(),
    schedule: (run) => run(),
  });
  const client = new Client(
    { name: `client-${owner}`, version: "1.0.0" },
    { capabilities: options.channel ? { experimental: { "claude/channel": {} } } : {} },
  );
  const inbox = new Inbox();
  client.fallbackNotificationHandler = (notification: Received) => {
    inbox.push(notification);
    return Promise.resolve();
  };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    server,
    client,
    inbox,
    settle: async () => void await client.ping(),
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
    },
  };
}

const uri = (id: string) => `yieldshell://executions/${id}`;

Deno.test("pushes: a subscribed client hears throttled output updates and the exit; another session hears nothing", async () => {
  const registry = new FakeRegistry();
  const clock = new ManualClock();
  await using a = await connect(registry, "A", { clock });
  await using b = await connect(registry, "B", { clock });
  registry.start("A", "aaa111");
  await a.client.subscribeResource({ uri: uri("aaa111") });

  registry.output("aaa111", "one\n");
  registry.output("aaa111", "two\n");
  registry.output("aaa111", "three\n");
  await a.settle();
  assert.equal(a.inbox.of("notifications/resources/updated").length, 1, "first change at once");
  clock.advance(999);
  await a.settle();
  assert.equal(a.inbox.of("notifications/resources/updated").length, 1, "then at most one per s");
  clock.advance(1);
  const updates = await a.inbox.until("notifications/resources/updated", 2);
  assert.deepEqual(updates.map((update) => update.params), [{ uri: uri("aaa111") }, {
    uri: uri("aaa111"),
  }]);

  // The exit is not held back by the throttle.
  registry.output("aaa111", "four\n");
  registry.end("aaa111", 0);
  await a.inbox.until("notifications/resources/updated", 3);
  const [log] = await a.inbox.until("notifications/message", 1);
  assert.equal(log.params.level, "info");
  assert.equal(log.params.logger, "yieldshell");
  assert.deepEqual(
    { ...log.params.data, message: undefined },
    { message: undefined, execution_id: "aaa111", status: "completed", exit_code: 0, signal: null },
  );
  assert.match(
    log.params.data.message,
    /^Background execution aaa111 \(sleep 1 # aaa111\) completed with exit code 0; its output is still readable: call read or wait with execution_id "aaa111"$/,
  );
  // The resource now says how it ended.
  const read = await a.client.readResource({ uri: uri("aaa111") });
  const view = JSON.parse((read.contents[0] as { text: string }).text);
  assert.equal(view.status, "completed");
  assert.equal(view.stdout_tail, "one\ntwo\nthree\nfour\n");
  clock.advance(5000);
  await a.settle();
  assert.equal(a.inbox.of("notifications/resources/updated").length, 3, "no update after exit");

  await b.settle();
  assert.deepEqual(b.inbox.all, [], "session B heard nothing of session A");
});

Deno.test("pushes: resources list and read only the session's own executions", async () => {
  const registry = new FakeRegistry();
  await using a = await connect(registry, "A");
  await using b = await connect(registry, "B");
  registry.start("A", "aaa111", "npm run dev");
  registry.start("A", "aaa222");
  registry.start("B", "bbb111");
  const { resources } = await a.client.listResources();
  assert.deepEqual(resources.map((resource: { uri: string }) => resource.uri), [
    uri("aaa222"),
    uri("aaa111"),
  ]);
  assert.equal(resources[1].title, "npm run dev");
  assert.equal(resources[1].mimeType, "application/json");
  const { resourceTemplates } = await a.client.listResourceTemplates();
  assert.equal(resourceTemplates[0].uriTemplate, "yieldshell://executions/{id}");

  await assert.rejects(
    () => a.client.readResource({ uri: uri("bbb111") }),
    /Unknown resource yieldshell:\/\/executions\/bbb111: no execution of this session has that id; list them with resources\/list/,
  );
  await assert.rejects(
    () => a.client.subscribeResource({ uri: uri("bbb111") }),
    /Unknown resource/,
  );
  await assert.rejects(
    () => a.client.subscribeResource({ uri: "yieldshell://elsewhere/x" }),
    /Unknown resource/,
  );
  // Each session hears list changes for its own executions only.
  await a.settle();
  assert.equal(a.inbox.of("notifications/resources/list_changed").length, 2);
  await b.settle();
  assert.equal(b.inbox.of("notifications/resources/list_changed").length, 1);
});

Deno.test("pushes: the server declares logging, subscribable resources and the Claude Code channel", async () => {
  await using a = await connect(new FakeRegistry(), "A");
  const capabilities = a.client.getServerCapabilities();
  assert.deepEqual(capabilities?.logging, {});
  assert.equal(capabilities?.resources?.subscribe, true);
  assert.equal(capabilities?.resources?.listChanged, true);
  assert.deepEqual(capabilities?.experimental?.["claude/channel"], {});
});

Deno.test("pushes: the Claude Code channel wakes only clients that opt in, and only for their own executions", async () => {
  const registry = new FakeRegistry();
  await using claude = await connect(registry, "A", { channel: true });
  await using other = await connect(registry, "B", { channel: true });
  await using plain = await connect(registry, "C");
  registry.start("A", "aaa111", "npm run build");
  registry.start("C", "ccc111");
  registry.end("aaa111", 2);
  registry.end("ccc111", 0);
  const [event] = await claude.inbox.until("notifications/claude/channel", 1);
  assert.equal(
    event.params.content,
    'Background execution aaa111 (npm run build) completed with exit code 2; its output is still readable: call read or wait with execution_id "aaa111".',
  );
  assert.deepEqual(event.params.meta, {
    execution_id: "aaa111",
    status: "completed",
    exit_code: "2",
  });
  for (const key of Object.keys(event.params.meta)) assert.match(key, /^[A-Za-z0-9_]+$/);
  await plain.inbox.until("notifications/message", 1);
  await other.settle();
  assert.deepEqual(other.inbox.all, [], "B opted in but owns no execution that ended");
  assert.equal(plain.inbox.of("notifications/claude/channel").length, 0, "C did not opt in");
});

Deno.test("pushes: a client that set the log level above info gets no exit entries", async () => {
  const registry = new FakeRegistry();
  await using a = await connect(registry, "A");
  await a.client.setLoggingLevel("warning");
  registry.start("A", "aaa111");
  await a.client.subscribeResource({ uri: uri("aaa111") });
  registry.end("aaa111", 0);
  await a.inbox.until("notifications/resources/updated", 1);
  await a.settle();
  assert.equal(a.inbox.of("notifications/message").length, 0);
  await a.client.setLoggingLevel("info");
  registry.start("A", "aaa222");
  registry.end("aaa222", 1);
  await a.inbox.until("notifications/message", 1);
});

Deno.test("pushes: an execution that completed inline sends no log entry; its subscribers still hear", async () => {
  const registry = new FakeRegistry();
  await using a = await connect(registry, "A", { channel: true });
  registry.start("A", "aaa111");
  await a.client.subscribeResource({ uri: uri("aaa111") });
  registry.end("aaa111", 0, { backgrounded: false });
  await a.inbox.until("notifications/resources/updated", 1);
  await a.settle();
  assert.equal(a.inbox.of("notifications/message").length, 0);
  assert.equal(a.inbox.of("notifications/claude/channel").length, 0);
});

Deno.test("pushes: a removed execution is announced once more, then forgotten; unsubscribe stops updates", async () => {
  const registry = new FakeRegistry();
  const clock = new ManualClock();
  await using a = await connect(registry, "A", { clock });
  registry.start("A", "aaa111");
  registry.start("A", "aaa222");
  await a.client.subscribeResource({ uri: uri("aaa111") });
  await a.client.subscribeResource({ uri: uri("aaa222") });
  registry.remove("aaa111");
  await a.inbox.until("notifications/resources/updated", 1);
  await assert.rejects(() => a.client.readResource({ uri: uri("aaa111") }), /Unknown resource/);
  await a.client.unsubscribeResource({ uri: uri("aaa222") });
  registry.output("aaa222", "more\n");
  registry.end("aaa222", 0);
  await a.inbox.until("notifications/message", 1);
  assert.deepEqual(a.inbox.of("notifications/resources/updated").map((n) => n.params.uri), [
    uri("aaa111"),
  ]);
  assert.equal(clock.pending, 0);
});

Deno.test("pushes: a closed session unsubscribes from the registry", async () => {
  const registry = new FakeRegistry();
  const a = await connect(registry, "A");
  const b = await connect(registry, "B");
  assert.equal(registry.hub.size, 2);
  await a[Symbol.asyncDispose]();
  assert.equal(registry.hub.size, 1);
  await b[Symbol.asyncDispose]();
  assert.equal(registry.hub.size, 0);
});
