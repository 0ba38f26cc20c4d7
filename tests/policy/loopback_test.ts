import assert from "node:assert/strict";
import { isLoopbackHost } from "../../src/policy/loopback.ts";

Deno.test("isLoopbackHost", async (t) => {
  const loopback = [
    "127.0.0.1",
    "127.255.255.254",
    "127.1",
    "localhost",
    "LOCALHOST",
    "::1",
    "[::1]",
    "0:0:0:0:0:0:0:1",
    "::ffff:127.0.0.1",
  ];
  for (const host of loopback) {
    await t.step(`${host} is loopback`, () => assert.equal(isLoopbackHost(host), true));
  }
  const remote = [
    "0.0.0.0",
    "::",
    "128.0.0.1",
    "10.0.0.1",
    "example.com",
    "localhost.example.com",
    "127.0.0.1.nip.io",
    "::ffff:10.0.0.1",
    "",
    "not a host",
  ];
  for (const host of remote) {
    await t.step(`${JSON.stringify(host)} is not loopback`, () => {
      assert.equal(isLoopbackHost(host), false);
    });
  }
});
