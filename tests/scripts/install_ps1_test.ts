/**
 * install.ps1 end to end against a fake release, where PowerShell is installed (GitHub's Linux
 * and macOS runners have pwsh; these machines cannot install it). On Windows the fake release's
 * shell-script binaries cannot run, so there the release workflow's Windows smoke job covers
 * install.ps1 with the real binary.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { outputName } from "../../scripts/compile_plan.ts";
import { ON_WINDOWS } from "../os.ts";
import {
  FAKE_VERSION_LINE,
  fakeBinary,
  HOST_TARGET,
  makeFakeRelease,
  serveDirectory,
} from "./fake_release.ts";
import { programRuns } from "./program_runs.ts";

const INSTALL_PS1 = fileURLToPath(new URL("../../install.ps1", import.meta.url));
const HOST_ASSET = outputName(HOST_TARGET);

function hasPwsh(): Promise<boolean> {
  return programRuns("pwsh", [
    "-NoProfile",
    "-NonInteractive",
    "-Command",
    "$PSVersionTable.PSVersion.Major",
  ]);
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function install(
  home: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Run> {
  const output = await new Deno.Command("pwsh", {
    args: ["-NoProfile", "-NonInteractive", "-File", INSTALL_PS1, ...args],
    env: {
      HOME: home,
      NO_COLOR: "1",
      YIELDSHELL_VERSION: "",
      YIELDSHELL_INSTALL_DIR: "",
      YIELDSHELL_BASE_URL: "",
      ...env,
    },
    stdin: "null",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "yieldshell-install-ps1-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const reason = ON_WINDOWS
  ? "the fake release's binaries are shell scripts; the release workflow's Windows job runs install.ps1"
  : (await hasPwsh())
  ? null
  : "pwsh is not installed here (PowerShell is not in Debian's archive); GitHub's runners have it";
const NAME = "install.ps1 installs from a fake release and refuses a corrupted asset";

if (reason !== null) {
  console.error(`Ignoring the install.ps1 end-to-end test: ${reason}`);
  Deno.test({ name: `${NAME} (ignored: ${reason})`, ignore: true, fn() {} });
} else {
  Deno.test(NAME, async (t) => {
    await withTemp(async (temp) => {
      const release = await makeFakeRelease(join(temp, "release"));
      await t.step("file:// release, install dir given", async () => {
        const dir = join(temp, "file-bin");
        const run = await install(temp, ["-BaseUrl", release.url, "-InstallDir", dir]);
        assert.equal(run.code, 0, run.stdout + run.stderr);
        assert.match(run.stdout, /Checksum verified: [0-9a-f]{64}/);
        assert.ok(run.stdout.includes(`Installed ${FAKE_VERSION_LINE} to ${dir}/yieldshell`));
        assert.equal(await Deno.readTextFile(join(dir, "yieldshell")), fakeBinary(HOST_TARGET));
        assert.equal((await Deno.stat(join(dir, "yieldshell"))).mode! & 0o111, 0o111);
      });
      await t.step("loopback HTTP release, from the environment", async () => {
        await using server = serveDirectory(release.dir);
        const dir = join(temp, "http-bin");
        const run = await install(temp, [], {
          YIELDSHELL_BASE_URL: server.url,
          YIELDSHELL_INSTALL_DIR: dir,
        });
        assert.equal(run.code, 0, run.stdout + run.stderr);
        assert.deepEqual(server.requests, ["SHA256SUMS", HOST_ASSET]);
        assert.equal(await Deno.readTextFile(join(dir, "yieldshell")), fakeBinary(HOST_TARGET));
      });
      await t.step("dry run", async () => {
        const run = await install(temp, ["-DryRun", "-Version", "0.1.0"]);
        assert.equal(run.code, 0, run.stdout + run.stderr);
        assert.ok(run.stdout.includes(`target:  ${HOST_TARGET}`));
        assert.ok(run.stdout.includes(`/releases/download/v0.1.0/${HOST_ASSET}`));
        assert.ok(run.stdout.includes(`install: ${join(temp, ".local/bin/yieldshell")}`));
      });
      await t.step("a corrupted asset is refused and nothing is installed", async () => {
        const asset = join(release.dir, HOST_ASSET);
        const bytes = await Deno.readFile(asset);
        bytes[bytes.length - 2] ^= 0x01;
        await Deno.writeFile(asset, bytes);
        const dir = join(temp, "corrupt-bin");
        const run = await install(temp, ["-BaseUrl", release.url, "-InstallDir", dir]);
        assert.notEqual(run.code, 0);
        const said = (run.stdout + run.stderr).replaceAll(/\s+/g, " ");
        assert.match(
          said,
          /Refusing to install \S+: its SHA-256 is [0-9a-f]{64} but SHA256SUMS says/,
        );
        assert.match(said, /Nothing was installed/);
        assert.doesNotMatch(run.stdout, /Installed/);
        await assert.rejects(Deno.stat(join(dir, "yieldshell")), Deno.errors.NotFound);
      });
    });
  });
}
