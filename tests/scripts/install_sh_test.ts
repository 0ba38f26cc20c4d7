import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { outputName, type Target } from "../../scripts/compile_plan.ts";
import { posix } from "../os.ts";
import {
  FAKE_VERSION_LINE,
  fakeBinary,
  HOST_TARGET,
  makeFakeRelease,
  serveDirectory,
  writeSums,
} from "./fake_release.ts";

const INSTALL_SH = fileURLToPath(new URL("../../install.sh", import.meta.url));
const HOST_ASSET = outputName(HOST_TARGET);
/** Every program install.sh may run, besides its downloader and checksum tool. */
const BASE_TOOLS = [
  "sh",
  "uname",
  "mkdir",
  "chmod",
  "mv",
  "cp",
  "rm",
  "awk",
  "mktemp",
  "basename",
  "cat",
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  /** The shell that runs install.sh. @default {"sh"} */
  shell?: string;
  /** PATH for the script. @default {the test's PATH} */
  path?: string;
  env?: Record<string, string>;
}

async function install(home: string, args: string[], options: RunOptions = {}): Promise<Run> {
  const { shell = "sh", path = Deno.env.get("PATH") ?? "/usr/bin:/bin", env = {} } = options;
  const output = await new Deno.Command(await which(shell) ?? shell, {
    args: [INSTALL_SH, ...args],
    // Nothing from the test's environment (a YIELDSHELL_VERSION, say) may leak in.
    clearEnv: true,
    env: { PATH: path, HOME: home, SHELL: "/bin/bash", ...env },
    stdin: "null",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}

async function which(program: string): Promise<string | null> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    const candidate = join(dir, program);
    try {
      const info = await Deno.stat(candidate);
      if (info.isFile && (info.mode ?? 0) & 0o111) return candidate;
    } catch { /* not here */ }
  }
  return null;
}

/** A directory holding only `programs` (symlinks), to run install.sh with a bare PATH. */
async function toolDir(dir: string, programs: readonly string[]): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  for (const program of programs) {
    const found = await which(program);
    if (found === null) throw new Error(`${program} is not installed`);
    await Deno.symlink(found, join(dir, program));
  }
  return dir;
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "yieldshell-install-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function assertInstalled(binary: string, target: Target = HOST_TARGET): Promise<void> {
  assert.equal(await Deno.readTextFile(binary), fakeBinary(target));
  assert.equal((await Deno.stat(binary)).mode! & 0o777, 0o755);
}

const SHELLS = ["sh", "dash", "bash"];

posix.test("install.sh installs the host binary from a file:// release", async (t) => {
  for (const shell of SHELLS) {
    const found = await which(shell);
    await t.step({
      name: `with ${shell}`,
      ignore: found === null,
      fn: () =>
        withTemp(async (temp) => {
          const release = await makeFakeRelease(join(temp, "release"));
          const dir = join(temp, "new", "bin");
          const run = await install(temp, ["--base-url", release.url, "--dir", dir], { shell });
          assert.equal(run.code, 0, run.stderr);
          assert.match(run.stdout, new RegExp(`Downloading ${HOST_ASSET} from ${release.url}\n`));
          assert.match(run.stdout, /Checksum verified: [0-9a-f]{64}\n/);
          assert.ok(run.stdout.includes(`Installed ${FAKE_VERSION_LINE} to ${dir}/yieldshell\n`));
          assert.ok(run.stdout.includes(`${dir} is not on your PATH yet; add it with:\n`));
          assert.ok(run.stdout.includes(`  echo 'export PATH="${dir}:$PATH"' >> ~/.bashrc\n`));
          await assertInstalled(join(dir, "yieldshell"));
          assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), ["yieldshell"]);
        }),
    });
  }
});

posix.test("install.sh downloads over loopback HTTP with curl or wget, and checks with any sum tool", async (t) => {
  await withTemp(async (temp) => {
    const release = await makeFakeRelease(join(temp, "release"));
    await using server = serveDirectory(release.dir);
    const cases: { name: string; tools: string[] }[] = [
      { name: "curl and sha256sum", tools: ["curl", "sha256sum"] },
      { name: "wget and shasum", tools: ["wget", "shasum"] },
      { name: "curl and openssl", tools: ["curl", "openssl"] },
    ];
    for (const { name, tools } of cases) {
      const missing = (await Promise.all(tools.map(which))).some((found) => found === null);
      await t.step({
        name,
        ignore: missing,
        fn: async () => {
          const bin = await toolDir(join(temp, name.replaceAll(" ", "_")), [
            ...BASE_TOOLS,
            ...tools,
          ]);
          const dir = join(temp, `${name}-bin`);
          server.requests.length = 0;
          const run = await install(temp, ["--dir", dir], {
            path: bin,
            env: { YIELDSHELL_BASE_URL: `${server.url}/` },
          });
          assert.equal(run.code, 0, run.stderr);
          assert.deepEqual(server.requests, ["SHA256SUMS", HOST_ASSET]);
          await assertInstalled(join(dir, "yieldshell"));
        },
      });
    }
    await t.step("neither curl nor wget: says so", async () => {
      const bin = await toolDir(join(temp, "bare"), [...BASE_TOOLS, "sha256sum"]);
      const run = await install(temp, ["--dir", join(temp, "bare-bin")], {
        path: bin,
        env: { YIELDSHELL_BASE_URL: server.url },
      });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /Cannot download: neither curl nor wget is installed; install one/);
    });
    await t.step("an asset the release lacks: the download fails with its URL", async () => {
      await Deno.remove(join(release.dir, HOST_ASSET));
      const run = await install(temp, ["--dir", join(temp, "lacking")], {
        env: { YIELDSHELL_BASE_URL: server.url },
      });
      assert.equal(run.code, 1);
      assert.ok(run.stderr.includes(`Cannot download ${server.url}/${HOST_ASSET} (curl failed`));
    });
  });
});

posix.test("install.sh refuses a download that does not match SHA256SUMS, and installs nothing", async (t) => {
  await withTemp(async (temp) => {
    const dir = join(temp, "bin");
    await Deno.mkdir(dir);
    const existing = join(dir, "yieldshell");
    await Deno.writeTextFile(existing, "#!/bin/sh\necho yieldshell 0.0.1\n");
    const untouched = async () => {
      assert.equal(await Deno.readTextFile(existing), "#!/bin/sh\necho yieldshell 0.0.1\n");
      assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), ["yieldshell"]);
    };
    await t.step("a corrupted asset", async () => {
      const release = await makeFakeRelease(join(temp, "corrupt"));
      const asset = join(release.dir, HOST_ASSET);
      const bytes = await Deno.readFile(asset);
      bytes[bytes.length - 2] ^= 0x01;
      await Deno.writeFile(asset, bytes);
      const run = await install(temp, ["--base-url", release.url, "--dir", dir]);
      assert.equal(run.code, 1);
      assert.match(
        run.stderr,
        new RegExp(
          `^install\\.sh: Refusing to install ${HOST_ASSET}: its SHA-256 is [0-9a-f]{64} but ` +
            "SHA256SUMS says [0-9a-f]{64}, so the download is corrupt or was tampered with\\. " +
            "Nothing was installed\n$",
        ),
      );
      assert.doesNotMatch(run.stdout, /Installed/);
      await untouched();
    });
    await t.step("an asset SHA256SUMS does not list", async () => {
      const release = await makeFakeRelease(join(temp, "unlisted"));
      await writeSums(release.dir, ["x86_64-pc-windows-msvc"]);
      const run = await install(temp, ["--base-url", release.url, "--dir", dir]);
      assert.equal(run.code, 1);
      assert.ok(run.stderr.includes(`Refusing to install ${HOST_ASSET}: SHA256SUMS has no line`));
      await untouched();
    });
    await t.step("an asset that does not run here", async () => {
      const release = await makeFakeRelease(join(temp, "broken"), {
        [HOST_TARGET]: 'echo "Killed: 9" >&2; exit 137',
      });
      const run = await install(temp, ["--base-url", release.url, "--dir", dir]);
      assert.equal(run.code, 1);
      assert.ok(
        run.stderr.includes("passes its checksum but does not run on this machine (Killed: 9)"),
      );
      await untouched();
    });
    await t.step("a pinned version the binary does not report", async () => {
      const release = await makeFakeRelease(join(temp, "other-version"));
      const run = await install(temp, [
        "--base-url",
        release.url,
        "--dir",
        dir,
        "--version",
        "0.2.0",
      ]);
      assert.equal(run.code, 1);
      assert.ok(run.stderr.includes(`it reports "${FAKE_VERSION_LINE}", not yieldshell 0.2.0`));
      await untouched();
    });
  });
});

posix.test("install.sh picks the asset for each OS and processor", async (t) => {
  const table: {
    os: string;
    arch: string;
    translated?: string;
    target?: string;
    error?: RegExp;
  }[] = [
    { os: "Linux", arch: "x86_64", target: "x86_64-unknown-linux-gnu" },
    { os: "Linux", arch: "amd64", target: "x86_64-unknown-linux-gnu" },
    { os: "Linux", arch: "aarch64", target: "aarch64-unknown-linux-gnu" },
    { os: "Linux", arch: "arm64", target: "aarch64-unknown-linux-gnu" },
    { os: "Darwin", arch: "x86_64", translated: "0", target: "x86_64-apple-darwin" },
    // An Intel shell under Rosetta on Apple Silicon gets the native binary.
    { os: "Darwin", arch: "x86_64", translated: "1", target: "aarch64-apple-darwin" },
    { os: "Darwin", arch: "arm64", target: "aarch64-apple-darwin" },
    {
      os: "MINGW64_NT-10.0-19045",
      arch: "x86_64",
      error: /On Windows, install with PowerShell: irm /,
    },
    {
      os: "Linux",
      arch: "riscv64",
      error: /No yieldshell binary for the riscv64 processor: releases /,
    },
    { os: "FreeBSD", arch: "amd64", error: /No yieldshell binary for FreeBSD: releases have / },
  ];
  await withTemp(async (temp) => {
    for (const { os, arch, translated, target, error } of table) {
      await t.step(`${os} ${arch}${translated === "1" ? " under Rosetta" : ""}`, async () => {
        const bin = join(temp, `${os}-${arch}-${translated}`);
        await Deno.mkdir(bin);
        await Deno.writeTextFile(
          join(bin, "uname"),
          `#!/bin/sh\ncase "$1" in -s) echo '${os}' ;; -m) echo '${arch}' ;; esac\n`,
        );
        await Deno.writeTextFile(join(bin, "sysctl"), `#!/bin/sh\necho '${translated ?? "0"}'\n`);
        await Deno.chmod(join(bin, "uname"), 0o755);
        await Deno.chmod(join(bin, "sysctl"), 0o755);
        const run = await install(temp, ["--dry-run"], { path: `${bin}:${Deno.env.get("PATH")}` });
        if (error !== undefined) {
          assert.equal(run.code, 1);
          assert.match(run.stderr, error);
          return;
        }
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, new RegExp(`^target: +${target}\n`));
        assert.match(run.stdout, new RegExp(`/yieldshell-${target}\n`));
      });
    }
  });
});

posix.test("install.sh --dry-run names the release URLs and the install path, and downloads nothing", async (t) => {
  await withTemp(async (temp) => {
    await t.step("latest by default, into ~/.local/bin", async () => {
      const run = await install(temp, ["--dry-run"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(
        run.stdout,
        `target:  ${HOST_TARGET}\n` +
          `binary:  https://github.com/yieldshell/yieldshell/releases/latest/download/${HOST_ASSET}\n` +
          "sums:    https://github.com/yieldshell/yieldshell/releases/latest/download/SHA256SUMS\n" +
          `install: ${temp}/.local/bin/yieldshell\n`,
      );
    });
    await t.step("a pinned version, with or without its v, and an install dir", async () => {
      for (const version of ["0.1.0", "v0.1.0"]) {
        const run = await install(temp, ["--dry-run", `--version=${version}`], {
          env: { YIELDSHELL_INSTALL_DIR: "/opt/bin" },
        });
        assert.equal(run.code, 0, run.stderr);
        assert.ok(run.stdout.includes("/releases/download/v0.1.0/SHA256SUMS\n"));
        assert.ok(run.stdout.endsWith("install: /opt/bin/yieldshell\n"));
      }
    });
    await t.step("bad options say what is valid", async () => {
      const unknown = await install(temp, ["--prefix", "/usr"]);
      assert.equal(unknown.code, 1);
      assert.equal(
        unknown.stderr,
        "install.sh: Unknown option --prefix: valid options are --version, --dir, --base-url, " +
          "--dry-run and --help\n",
      );
      const bare = await install(temp, ["--dir"]);
      assert.match(bare.stderr, /--dir needs a directory/);
    });
  });
});

posix.test("install.sh says nothing about PATH when the directory is on it", async () => {
  await withTemp(async (temp) => {
    const release = await makeFakeRelease(join(temp, "release"));
    const dir = join(temp, "bin");
    const run = await install(temp, ["--base-url", release.url, "--dir", dir], {
      path: `${dir}:${Deno.env.get("PATH")}`,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, /not on your PATH/);
    assert.ok(run.stdout.includes(`claude mcp add yieldshell -- ${dir}/yieldshell\n`));
    await assertInstalled(join(dir, "yieldshell"));
  });
});
