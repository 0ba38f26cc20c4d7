/**
 * A local directory laid out like a GitHub release (one asset per target and SHA256SUMS), for
 * testing the install scripts with no network. Each POSIX asset is a tiny script that answers
 * `--version` as the real binary does and names its target, so a test can tell which was picked.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import denoJson from "../../deno.json" with { type: "json" };
import { formatSums, outputName, type Target, TARGETS, toHex } from "../../scripts/compile_plan.ts";

/** A fake release on disk. */
export interface FakeRelease {
  dir: string;
  /** `file://` URL of {@linkcode FakeRelease.dir}, without a trailing slash. */
  url: string;
  /** The contents of each asset, by target. */
  assets: Record<Target, string>;
}

/** The target release asset this machine's installer must pick. */
export const HOST_TARGET = Deno.build.target as Target;

/** What a fake asset prints for `--version`. */
export const FAKE_VERSION_LINE = `yieldshell ${denoJson.version}`;

/** The text of a fake binary for `target`. */
export function fakeBinary(target: Target, body = `echo "${FAKE_VERSION_LINE}"`): string {
  return `#!/bin/sh\n# fake yieldshell for ${target}\n${body}\n`;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** Writes SHA256SUMS for the assets now in `dir`, as `deno task compile` does. */
export async function writeSums(dir: string, targets: readonly Target[] = TARGETS): Promise<void> {
  const entries = await Promise.all(targets.map(async (target) => ({
    name: outputName(target),
    sha256: await sha256(await Deno.readFile(join(dir, outputName(target)))),
  })));
  await Deno.writeTextFile(join(dir, "SHA256SUMS"), formatSums(entries));
}

/** Lays out a release under `dir`; `bodies` replaces what chosen fake binaries do. */
export async function makeFakeRelease(
  dir: string,
  bodies: Partial<Record<Target, string>> = {},
): Promise<FakeRelease> {
  await Deno.mkdir(dir, { recursive: true });
  const assets = {} as Record<Target, string>;
  for (const target of TARGETS) {
    assets[target] = fakeBinary(target, bodies[target]);
    await Deno.writeTextFile(join(dir, outputName(target)), assets[target]);
  }
  await writeSums(dir);
  return { dir, url: pathToFileURL(dir).href, assets };
}

/** Serves `dir` over loopback HTTP until disposed; records each path requested. */
export function serveDirectory(dir: string): AsyncDisposable & { url: string; requests: string[] } {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const name = decodeURIComponent(new URL(request.url).pathname.slice(1));
    requests.push(name);
    if (name.includes("/") || name.includes("\\") || name.startsWith(".")) {
      return new Response("bad path", { status: 400 });
    }
    try {
      return new Response(await Deno.readFile(join(dir, name)));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
