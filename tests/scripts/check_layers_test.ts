import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const script = `${root}scripts/check_layers.ts`;

/** A copy of the repository's src/ and main.ts, with `probes` (path -> source) added. */
async function copyWith(probes: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "yieldshell-layers-" });
  await copyTree(`${root}src`, `${dir}/src`);
  await Deno.copyFile(`${root}main.ts`, `${dir}/main.ts`);
  for (const [path, source] of Object.entries(probes)) {
    await Deno.writeTextFile(`${dir}/${path}`, source);
  }
  return dir;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

async function check(dir: string): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P=test", script, "--root", dir],
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

Deno.test("the layer check passes the repository as it is", async () => {
  const dir = await copyWith({});
  try {
    assert.deepEqual(await check(dir), { code: 0, stderr: "" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the layer check fails on probes that break the import direction", async () => {
  const probes: Record<string, [string, RegExp]> = {
    "src/core/probe_policy.ts": [
      'import { checkCwd } from "../policy/cwd.ts";\nexport const probe = checkCwd;\n',
      /src\/core\/probe_policy\.ts: core may not import policy\/cwd\.ts/,
    ],
    "src/core/probe_platform.ts": [
      'import type { OsFacts } from "../platform/os_facts.ts";\nexport type Probe = OsFacts;\n',
      /src\/core\/probe_platform\.ts: core may not import platform\/os_facts\.ts/,
    ],
    "src/platform/probe_manager.ts": [
      'import type { ExecutionManager } from "../core/manager.ts";\nexport type P = ExecutionManager;\n',
      /src\/platform\/probe_manager\.ts: platform may not import core\/manager\.ts/,
    ],
    "src/transports/probe_core.ts": [
      'import type { CallContext } from "../core/call_context.ts";\nexport type P = CallContext;\n',
      /src\/transports\/probe_core\.ts: transports may not import core\/call_context\.ts/,
    ],
    "src/transports/probe_config.ts": [
      'import type { Config } from "../config/mod.ts";\nexport type P = Config;\n',
      /src\/transports\/probe_config\.ts: transports may not import config\/mod\.ts/,
    ],
    "src/core/probe_lazy.ts": [
      'const CWD_MODULE = "../policy/cwd.ts";\nexport const probe = () => import(CWD_MODULE);\n',
      /src\/core\/probe_lazy\.ts: core may not import policy\/cwd\.ts/,
    ],
    "src/contract/probe_core.ts": [
      'import type { Clock } from "../core/clock.ts";\nexport type P = Clock;\n',
      /src\/contract\/probe_core\.ts: contract may not import core\/clock\.ts/,
    ],
  };
  const sources = Object.fromEntries(
    Object.entries(probes).map(([path, [source]]) => [path, source]),
  );
  const dir = await copyWith(sources);
  try {
    const { code, stderr } = await check(dir);
    assert.equal(code, 1);
    for (const [, pattern] of Object.values(probes)) assert.match(stderr, pattern);
    assert.equal(stderr.trim().split("\n").length, Object.keys(probes).length, stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
