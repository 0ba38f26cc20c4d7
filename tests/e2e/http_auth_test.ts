import assert from "node:assert/strict";
import { discoverOAuthServerInfo } from "@modelcontextprotocol/sdk/client/auth.js";
import { startHttpServer } from "./http_harness.ts";

const JSON_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};
/** A token as the README says to make one (`openssl rand -hex 32`), fresh for each run. */
const token = () => Array.from(crypto.getRandomValues(new Uint8Array(32)), hex).join("");
const hex = (byte: number) => byte.toString(16).padStart(2, "0");

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

Deno.test("http: with a token, OAuth discovery paths answer 404 and /mcp answers 401", async () => {
  await using server = await startHttpServer({ env: { YIELDSHELL_AUTH_TOKEN: token() } });
  const base = new URL(server.url);
  for (
    const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-authorization-server",
      "/.well-known/oauth-authorization-server/mcp",
      "/.well-known/openid-configuration",
    ]
  ) {
    const response = await fetch(new URL(path, base));
    assert.equal(response.status, 404, path);
    assert.equal(response.headers.get("www-authenticate"), null, path);
    assert.match((await response.json()).error.message, /the MCP endpoint is \/mcp/);
  }
  // The SDK's own OAuth discovery (what an OAuth-capable client runs on a 401) finds no OAuth
  // here instead of failing, so the client goes on with its configured Authorization header.
  const probed: number[] = [];
  const info = await discoverOAuthServerInfo(server.url, {
    fetchFn: async (url: string | URL, init?: RequestInit) => {
      const response = await fetch(url, init);
      probed.push(response.status);
      return response;
    },
  });
  assert.equal(info.resourceMetadata, undefined);
  assert.equal(info.authorizationServerMetadata, undefined);
  assert.ok(probed.length > 0 && probed.every((status) => status === 404), `${probed}`);
  const unauthorized = await postJson(server.url, { jsonrpc: "2.0", id: 1, method: "ping" });
  assert.equal(unauthorized.status, 401);
});
