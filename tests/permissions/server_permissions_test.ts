import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { eventually, marker, serverCommand } from "../e2e/harness.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ON_POSIX } from "../os.ts";

const root = new URL("../../", import.meta.url).pathname;
const DENIED: string[] = denoJson.permissions.server.read.deny;

interface Report {
  reads: Record<string, string>;
  revoked: string;
  envAfter: string;
  childExplicit: string;
  childInherited: string;
}

/** Runs the probe exactly as the README starts the server: `deno run -P=server`. */
async function probe(paths: string[], mark: string): Promise<Report> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=server", "tests/permissions/probe.ts", ...paths],
    cwd: root,
    env: { PROBE_MARK: mark },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.ok(output.success, stderr);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

Deno.test("the server permission set denies reading credentials the server never needs", () => {
  for (
    const path of ["/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/root/.ssh", "/root/.aws"]
  ) {
    assert.ok(DENIED.includes(path), path);
  }
  assert.equal(denoJson.permissions.server.read.allow, true);
});

Deno.test({
  name: "a probe under -P=server cannot read a denied path, nor the environment after revoking env",
  ignore: !ON_POSIX,
  fn: async () => {
    const mark = marker();
    const inside = DENIED.map((path) => `${path}/probe-${mark}`);
    const report = await probe([...DENIED, ...inside, "/etc/hostname"], mark);
    for (const path of [...DENIED, ...inside]) {
      assert.equal(report.reads[path], "denied", `${path} is readable under -P=server`);
    }
    // Reading in general still works (the server resolves cwds, shells, its config and grammar).
    assert.notEqual(report.reads["/etc/hostname"], "denied");
    // Deno.permissions.revokeSync({ name: "env" }) after the snapshot: the environment is gone
    // for the process, children still get theirs (explicitly, as the server passes it, or
    // inherited).
    assert.notEqual(report.revoked, "granted");
    assert.equal(report.envAfter, "denied");
    assert.equal(report.childExplicit, mark);
    assert.equal(report.childInherited, mark);
  },
});

Deno.test({
  name:
    "the running server cannot read its environment, a denied path or write; children get theirs",
  ignore: !ON_POSIX,
  fn: async () => {
    const mark = marker();
    // The README's command, with the probe preloaded into the same isolate as main.ts.
    const { command, args } = serverCommand([], [
      `--preload=${root}tests/permissions/server_probe.ts`,
    ]);
    const transport = new StdioClientTransport({
      command,
      args,
      cwd: root,
      env: { ...Deno.env.toObject(), PROBE_MARK: mark },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Uint8Array | string) => {
      stderr += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
    });
    const client = new Client({ name: "permission-probe", version: "1.0.0" });
    await client.connect(transport);
    try {
      // The server is up and serving: its children still get the environment it started with.
      const result = await client.callTool({
        name: "execute",
        arguments: { command: 'printf %s "$PROBE_MARK"', side_effects: ["NONE"] },
      });
      assert.equal((result.structuredContent as { stdout: string }).stdout, mark);
      Deno.kill(transport.pid!, "SIGUSR2");
      await eventually(() => stderr.includes("permission-probe "), 10_000, "the probe's report");
      const line = stderr.split("\n").find((text) => text.startsWith("permission-probe "))!;
      assert.deepEqual(JSON.parse(line.slice("permission-probe ".length)), {
        envGet: "denied",
        envObject: "denied",
        processEnv: "denied",
        envState: "denied",
        deniedRead: "denied",
        write: "denied",
      });
    } finally {
      await client.close();
    }
  },
});
