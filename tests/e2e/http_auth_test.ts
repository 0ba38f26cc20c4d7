import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { discoverOAuthServerInfo } from "@modelcontextprotocol/sdk/client/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startServer } from "./harness.ts";
import { connectHttp, type HttpSession, postJson, startHttpServer } from "./http_harness.ts";
import { posix } from "../os.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const NONE = ["NONE"];
/** A token as the README says to make one (`openssl rand -hex 32`), fresh for each run. */
const token = () => Array.from(crypto.getRandomValues(new Uint8Array(32)), hex).join("");
const hex = (byte: number) => byte.toString(16).padStart(2, "0");

/** Runs `command` with no side effects declared; returns what it printed and its exit code. */
async function run(session: HttpSession, command: string) {
  const reply = await session.call("execute", { command, side_effects: NONE });
  return reply.payload as { stdout: string; stderr: string; exit_code: number };
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

Deno.test("http: startup refuses an auth token shorter than 16 characters", async (t) => {
  /** Starts the server; its exit code, or null when it started listening instead (stopped). */
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-P=server",
        "--allow-net",
        "main.ts",
        "--transport",
        "http",
        "--port",
        "0",
        ...args,
      ],
      cwd: root,
      env: { NO_COLOR: "1", YIELDSHELL_AUTH_TOKEN: "", ...env },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let stderr = "";
    let listening = false;
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      stderr += chunk;
      if (!listening && stderr.includes("listening on")) {
        listening = true;
        child.kill("SIGTERM");
      }
    }
    const { code } = await child.status;
    return { code: listening ? null : code, stderr };
  };
  const short = "s3cret-15-chars";
  await t.step("from the variable, on 0.0.0.0", async () => {
    const { code, stderr } = await run(["--host", "0.0.0.0"], { YIELDSHELL_AUTH_TOKEN: short });
    assert.equal(code, 2);
    assert.match(
      stderr,
      /YIELDSHELL_AUTH_TOKEN is too short \(15 characters\); an auth token needs at least 16; generate one with: openssl rand -hex 32/,
    );
    assert.doesNotMatch(stderr, new RegExp(short), "the token is not echoed");
  });
  await t.step("from the flag, on loopback", async () => {
    const { code, stderr } = await run(["--auth-token", "x"]);
    assert.equal(code, 2);
    assert.match(stderr, /--auth-token is too short \(1 characters\)/);
  });
  await t.step("with a space, which no Authorization header could carry", async () => {
    const { code, stderr } = await run(["--auth-token", "sixteen chars ok"]);
    assert.equal(code, 2);
    assert.match(stderr, /--auth-token contains spaces or characters other than printable ASCII/);
  });
});

posix.test("http: commands never see YIELDSHELL_AUTH_TOKEN and the token is redacted", async (t) => {
  const secret = token();
  await t.step("token from the variable (not matching any redaction pattern)", async () => {
    await using server = await startHttpServer({ env: { YIELDSHELL_AUTH_TOKEN: secret } });
    await using s = await connectHttp(server.url, { Authorization: `Bearer ${secret}` });
    const env = await run(s, "env");
    assert.match(env.stdout, /CI=true/, "env ran");
    assert.doesNotMatch(env.stdout, /YIELDSHELL_AUTH_TOKEN/);
    assert.ok(!env.stdout.includes(secret));
    const printed = await run(s, "printenv YIELDSHELL_AUTH_TOKEN");
    assert.equal(printed.exit_code, 1);
    assert.equal(printed.stdout, "");
    const echoed = await run(s, `echo ${secret}; echo "x${secret}y" >&2`);
    assert.equal(echoed.stdout, "[REDACTED:YIELDSHELL_AUTH_TOKEN]\n");
    assert.equal(echoed.stderr, "x[REDACTED:YIELDSHELL_AUTH_TOKEN]y\n");
    const ps = await s.client.callTool({ name: "ps", arguments: {} }) as CallToolResult;
    assert.ok(!JSON.stringify(ps).includes(secret), "ps shows no token in commands");
  });
  await t.step("token from the flag", async () => {
    await using server = await startHttpServer({ args: ["--auth-token", secret] });
    await using s = await connectHttp(server.url, { Authorization: `Bearer ${secret}` });
    assert.equal((await run(s, `printf %s ${secret}`)).stdout, "[REDACTED:YIELDSHELL_AUTH_TOKEN]");
  });
  await t.step("over stdio, where build scripts run too", async () => {
    await using s = await startServer({ env: { YIELDSHELL_AUTH_TOKEN: secret } });
    const printed = await s.call("execute", {
      command: "printenv YIELDSHELL_AUTH_TOKEN; echo end",
      side_effects: NONE,
    });
    assert.equal(printed.payload.stdout, "end\n");
    const echoed = await s.call("execute", { command: `echo ${secret}`, side_effects: NONE });
    assert.equal(echoed.payload.stdout, "[REDACTED:YIELDSHELL_AUTH_TOKEN]\n");
  });
});
