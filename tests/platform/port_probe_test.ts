import assert from "node:assert/strict";
import { createPortProbe } from "../../src/platform/port_probe.ts";

Deno.test("port probe: a real loopback listener accepts, a closed port does not", async () => {
  const probe = createPortProbe();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  const accepting = (async () => {
    for await (const connection of listener) connection.close();
  })();
  try {
    assert.equal(probe.unavailable("127.0.0.1"), null);
    assert.equal(await probe.accepts("127.0.0.1", port), true);
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
  assert.equal(await probe.accepts("127.0.0.1", port), false);
});

Deno.test("port probe: ::1 is probed on its own address", async () => {
  let listener: Deno.Listener;
  try {
    listener = Deno.listen({ hostname: "::1", port: 0 });
  } catch {
    console.log("port probe: no IPv6 loopback here; checking only that ::1 is not 127.0.0.1");
    assert.equal(await createPortProbe().accepts("::1", 9), false);
    return;
  }
  const { port } = listener.addr as Deno.NetAddr;
  const accepting = (async () => {
    for await (const connection of listener) connection.close();
  })();
  try {
    assert.equal(await createPortProbe().accepts("::1", port), true);
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});

Deno.test("port probe: without net permission it says which flag to add", async () => {
  const script = `
    import { createPortProbe } from ${
    JSON.stringify(new URL("../../src/platform/port_probe.ts", import.meta.url).href)
  };
    const probe = createPortProbe();
    console.log(JSON.stringify(probe.unavailable("127.0.0.1")));
    try { await probe.accepts("127.0.0.1", 9); console.log("no error"); }
    catch (error) { console.log(JSON.stringify(error.message)); }
  `;
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  let output;
  try {
    await Deno.writeTextFile(file, script);
    // Read permission only, as a server started without --allow-net.
    output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "--allow-read", file],
      stdout: "piped",
      stderr: "inherit",
    }).output();
  } finally {
    await Deno.remove(file);
  }
  const { stdout, success } = output;
  assert.ok(success);
  const [unavailable, thrown] = new TextDecoder().decode(stdout).trim().split("\n").map((line) =>
    JSON.parse(line)
  );
  assert.match(
    unavailable,
    /^Cannot probe ports on 127\.0\.0\.1 as the server has no network permission for it; start the server with --allow-net=127\.0\.0\.1,\[::1\]/,
  );
  assert.equal(thrown, unavailable);
});
