import assert from "node:assert/strict";
import { type Http1Server, listenHttp1 } from "../../src/transports/http1_server.ts";
import { readResponse, writeAll } from "../e2e/raw_http.ts";

/** A server on a free loopback port whose handler echoes the request, unless told otherwise. */
function serve(
  handler: (request: Request) => Promise<Response> = echo,
  options: { requestReadTimeoutMs?: number } = {},
): Http1Server & AsyncDisposable {
  const server = listenHttp1({
    hostname: "127.0.0.1",
    port: 0,
    handler,
    onError: () => new Response("internal", { status: 500 }),
    requestReadTimeoutMs: options.requestReadTimeoutMs ?? 30_000,
  });
  return Object.assign(server, { [Symbol.asyncDispose]: () => server.shutdown() });
}

async function echo(request: Request): Promise<Response> {
  const body = request.body === null ? "" : await request.text();
  const url = new URL(request.url);
  return new Response(`${request.method} ${url.pathname}${url.search} ${body}`, {
    headers: { "X-Host": request.headers.get("host") ?? "" },
  });
}

async function connect(server: Http1Server): Promise<Deno.Conn> {
  return await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
}

Deno.test("http1 server: keep-alive, pipelining, framing of both kinds", async () => {
  await using server = serve();
  const conn = await connect(server);
  try {
    await writeAll(
      conn,
      "POST /a?b HTTP/1.1\r\nHost: h:1\r\nContent-Length: 5\r\n\r\nhello" +
        "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" +
        "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n" +
        "\r\nGET /d HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
    );
    const first = await readResponse(conn);
    assert.equal(first?.status, 200);
    assert.equal(first?.body, "POST /a?b hello");
    assert.equal(first?.headers.get("x-host"), "h:1");
    assert.equal(first?.headers.get("connection"), "keep-alive");
    assert.match(first?.headers.get("keep-alive") ?? "", /^timeout=60$/);
    const second = await readResponse(conn);
    assert.equal(second?.body, "POST /c abcde");
    const third = await readResponse(conn);
    assert.equal(third?.body, "GET /d ");
    assert.equal(third?.headers.get("connection"), "close");
    assert.equal(await conn.read(new Uint8Array(1)), null, "closed after Connection: close");
  } finally {
    conn.close();
  }
});

Deno.test("http1 server: 100-continue, HEAD and HTTP/1.0", async (t) => {
  await using server = serve();
  await t.step("100 Continue is sent when the handler reads the body", async () => {
    const conn = await connect(server);
    try {
      await writeAll(
        conn,
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n",
      );
      const buffer = new Uint8Array(64);
      const count = await conn.read(buffer);
      assert.equal(
        new TextDecoder().decode(buffer.subarray(0, count ?? 0)),
        "HTTP/1.1 100 Continue\r\n\r\n",
      );
      await writeAll(conn, "ok");
      assert.equal((await readResponse(conn))?.body, "POST / ok");
    } finally {
      conn.close();
    }
  });
  await t.step("HEAD gets headers only", async () => {
    const conn = await connect(server);
    try {
      await writeAll(conn, "HEAD / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
      const response = await readResponse(conn, { headOnly: true });
      assert.equal(response?.status, 200);
      assert.equal(await conn.read(new Uint8Array(1)), null, "no body follows the head");
    } finally {
      conn.close();
    }
  });
  await t.step("HTTP/1.0 gets an unframed body and a closed connection", async () => {
    const conn = await connect(server);
    try {
      await writeAll(conn, "GET /old HTTP/1.0\r\n\r\n");
      const response = await readResponse(conn);
      assert.equal(response?.body, "GET /old ");
      assert.equal(response?.headers.get("transfer-encoding"), null);
    } finally {
      conn.close();
    }
  });
});

Deno.test("http1 server: refusals answer with a status and close", async (t) => {
  await using server = serve();
  const cases: [string, string, number][] = [
    [
      "both framings",
      "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
      400,
    ],
    ["a head over 64 KiB", `GET / HTTP/1.1\r\nHost: h\r\nX: ${"a".repeat(70_000)}\r\n\r\n`, 431],
    ["HTTP/2 without TLS", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505],
  ];
  for (const [name, text, status] of cases) {
    await t.step(name, async () => {
      const conn = await connect(server);
      try {
        await writeAll(conn, text);
        const response = await readResponse(conn);
        assert.equal(response?.status, status);
        assert.equal(response?.headers.get("connection"), "close");
        assert.match(JSON.parse(response?.body ?? "").error.message, /^[A-Z]/);
      } finally {
        conn.close();
      }
    });
  }
  await t.step("a handler that throws gets onError's answer", async () => {
    await using failing = serve(() => Promise.reject(new Error("boom")));
    const conn = await connect(failing);
    try {
      await writeAll(conn, "GET / HTTP/1.1\r\nHost: h\r\n\r\n");
      const response = await readResponse(conn);
      assert.equal(response?.status, 500);
      assert.equal(response?.body, "internal");
    } finally {
      conn.close();
    }
  });
});

Deno.test("http1 server: a client going away cancels a streaming response", async () => {
  const cancelled = Promise.withResolvers<unknown>();
  const started = Promise.withResolvers<void>();
  await using server = serve(() => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("event: first\n\n"));
        started.resolve();
      },
      cancel: (reason) => cancelled.resolve(reason),
    });
    return Promise.resolve(
      new Response(body, { headers: { "Content-Type": "text/event-stream" } }),
    );
  });
  const conn = await connect(server);
  await writeAll(conn, "GET / HTTP/1.1\r\nHost: h\r\n\r\n");
  await started.promise;
  const buffer = new Uint8Array(1024);
  assert.ok((await conn.read(buffer)) !== null, "the first event arrives");
  conn.close();
  await cancelled.promise;
});

Deno.test("http1 server: shutdown closes idle connections and waits for busy ones", async () => {
  const release = Promise.withResolvers<void>();
  const reached = Promise.withResolvers<void>();
  const server = serve(async (request) => {
    if (new URL(request.url).pathname === "/slow") {
      reached.resolve();
      await release.promise;
    }
    return new Response("done");
  });
  const idle = await connect(server);
  const busy = await connect(server);
  try {
    await writeAll(idle, "GET / HTTP/1.1\r\nHost: h\r\n\r\n");
    assert.equal((await readResponse(idle))?.body, "done");
    await writeAll(busy, "GET /slow HTTP/1.1\r\nHost: h\r\n\r\n");
    await reached.promise;
    const down = server.shutdown();
    assert.equal(await idle.read(new Uint8Array(1)), null, "the idle connection is closed");
    release.resolve();
    const answer = await readResponse(busy);
    assert.equal(answer?.body, "done");
    assert.equal(answer?.headers.get("connection"), "close");
    await down;
    await assert.rejects(connect(server), "no longer listening");
  } finally {
    idle.close();
    busy.close();
  }
});
