import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { outputName, TARGETS } from "../../scripts/compile_plan.ts";
import { ON_POSIX } from "../os.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a copy of scripts/compile.ts in `dir`, so its dist/ is the copy's and never the
 * checkout's, where a developer's real binaries may be.
 */
async function compile(dir: string, args: string[]): Promise<Run> {
  await Deno.mkdir(join(dir, "scripts"), { recursive: true });
  for (const file of ["deno.json", "scripts/compile.ts", "scripts/compile_plan.ts"]) {
    await Deno.copyFile(join(ROOT, file), join(dir, file));
  }
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", "--no-lock", "-A", join(dir, "scripts/compile.ts"), ...args],
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "yieldshell-compile-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("compile --sums-only writes SHA256SUMS for binaries built elsewhere", async (t) => {
  await withTemp(async (dir) => {
    await t.step("refuses while a binary is missing, naming it", async () => {
      await Deno.mkdir(join(dir, "dist"), { recursive: true });
      await Deno.writeTextFile(join(dir, "dist", outputName(TARGETS[0])), "one");
      const run = await compile(dir, ["--sums-only"]);
      assert.equal(run.code, 1);
      assert.match(
        run.stderr,
        new RegExp(
          `^Cannot write dist/SHA256SUMS as dist/${
            outputName(TARGETS[1])
          }, .* are missing: build them first`,
        ),
      );
      await assert.rejects(Deno.stat(join(dir, "dist", "SHA256SUMS")), Deno.errors.NotFound);
    });
    await t.step("hashes every binary, in sha256sum's format", async () => {
      for (const target of TARGETS) {
        await Deno.writeTextFile(join(dir, "dist", outputName(target)), `binary for ${target}\n`);
      }
      const run = await compile(dir, ["--sums-only", "--expect-version", "v" + (await version())]);
      assert.equal(run.code, 0, run.stderr);
      const sums = await Deno.readTextFile(join(dir, "dist", "SHA256SUMS"));
      assert.equal(sums.trim().split("\n").length, TARGETS.length);
      if (ON_POSIX) {
        const check = await new Deno.Command("sh", {
          args: ["-c", "sha256sum -c SHA256SUMS || shasum -a 256 -c SHA256SUMS"],
          cwd: join(dir, "dist"),
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert.ok(check.success, new TextDecoder().decode(check.stdout));
      }
    });
    await t.step("a release tag that disagrees with deno.json is refused first", async () => {
      const run = await compile(dir, ["--sums-only", "--expect-version", "v99.0.0"]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /^Cannot compile release v99\.0\.0 as deno\.json says version /);
    });
  });
});

async function version(): Promise<string> {
  return JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).version;
}

Deno.test("compile --codesign is refused where it cannot work", async (t) => {
  await withTemp(async (dir) => {
    await t.step("with --sums-only", async () => {
      const run = await compile(dir, ["--codesign", "--sums-only", "aarch64-apple-darwin"]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /^Cannot combine --codesign with --sums-only/);
    });
    await t.step({
      name: "off macOS, before anything is compiled",
      ignore: Deno.build.os === "darwin",
      fn: async () => {
        const run = await compile(dir, ["--codesign", "aarch64-apple-darwin"]);
        assert.equal(run.code, 2);
        assert.match(
          run.stderr,
          new RegExp(`^Cannot codesign on ${Deno.build.os}: codesign exists only on macOS; build`),
        );
        await assert.rejects(Deno.stat(join(dir, "dist")), Deno.errors.NotFound);
      },
    });
  });
});
