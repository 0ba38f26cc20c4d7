import assert from "node:assert/strict";
import { join } from "node:path";
import denoJson from "../../deno.json" with { type: "json" };
import { lazyImportsOf } from "../../scripts/lazy_imports.ts";
import {
  denortCachePath,
  denortUrl,
  ENTITLEMENTS_FILE,
  formatSums,
  INCLUDES,
  isDarwinTarget,
  LOOPBACK_HOSTS,
  netHostList,
  outputName,
  parseTargets,
  planCodesign,
  planCompile,
  preflightMessage,
  type PreflightReport,
  TARGETS,
  toHex,
  usesDenortBin,
  versionMismatch,
} from "../../scripts/compile_plan.ts";

const ROOT = new URL("../../", import.meta.url);

function valueOf(argv: readonly string[], flag: string): string[] {
  return argv.flatMap((arg, index) => arg === flag ? [argv[index + 1]] : []);
}

Deno.test("the five release targets, in order", () => {
  assert.deepEqual(TARGETS, [
    "x86_64-unknown-linux-gnu",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "aarch64-apple-darwin",
    "x86_64-pc-windows-msvc",
  ]);
});

Deno.test("parseTargets", async (t) => {
  await t.step("no names means every target", () => {
    assert.deepEqual(parseTargets([]), [...TARGETS]);
  });
  await t.step("keeps the order given and drops repeats", () => {
    assert.deepEqual(
      parseTargets(["x86_64-pc-windows-msvc", "aarch64-apple-darwin", "x86_64-pc-windows-msvc"]),
      ["x86_64-pc-windows-msvc", "aarch64-apple-darwin"],
    );
  });
  for (const name of ["linux", "x86_64-unknown-linux-musl", "X86_64-APPLE-DARWIN", ""]) {
    await t.step(`rejects ${JSON.stringify(name)} and lists the valid targets`, () => {
      assert.throws(() => parseTargets(["x86_64-apple-darwin", name]), {
        message: `Cannot compile for unknown target "${name}": valid targets are ` +
          TARGETS.join(", "),
      });
    });
  }
});

Deno.test("output names carry the target and .exe only on Windows", async (t) => {
  for (const target of TARGETS) {
    await t.step(target, () => {
      const windows = target === "x86_64-pc-windows-msvc";
      assert.equal(outputName(target), `yieldshell-${target}${windows ? ".exe" : ""}`);
    });
  }
});

Deno.test("planCompile builds one deno compile call per target", async (t) => {
  const steps = planCompile({ targets: [...TARGETS] });
  assert.deepEqual(steps.map((step) => step.target), [...TARGETS]);
  for (const step of steps) {
    await t.step(step.target, () => {
      const { argv, output, target } = step;
      assert.equal(argv[0], "compile");
      assert.equal(argv.at(-1), "main.ts");
      assert.equal(output, `dist/${outputName(target)}`);
      assert.deepEqual(valueOf(argv, "--target"), [target]);
      assert.deepEqual(valueOf(argv, "--output"), [output]);
      assert.deepEqual(valueOf(argv, "--include"), [...INCLUDES]);
      assert.ok(argv.includes("--frozen"));
      assert.ok(argv.includes("--no-prompt"));
    });
  }
});

Deno.test("binaries get the tty set (Windows and --no-tty: server) and loopback networking, never all", () => {
  for (const { target, argv } of planCompile({ targets: [...TARGETS] })) {
    const set = target.includes("windows") ? "server" : "tty";
    assert.ok(argv.includes(`--permission-set=${set}`), `${target}: ${set}`);
    const narrow = planCompile({ targets: [target], tty: false })[0].argv;
    assert.ok(narrow.includes("--permission-set=server"), `${target} with --no-tty`);
    assert.ok(argv.includes("--allow-net=127.0.0.1,localhost,[::1]"));
    for (const arg of argv) {
      assert.ok(!/^(-A|--allow-all|-[a-zA-Z]*A)$/.test(arg), `unexpected ${arg}`);
      assert.ok(!/^--allow-(all|write|ffi|sys|import)\b/.test(arg), `unexpected ${arg}`);
      assert.ok(!/^-[WS]/.test(arg), `unexpected ${arg}`);
    }
    // Exactly one network grant, and never an unscoped one.
    assert.equal(argv.filter((arg) => arg.startsWith("--allow-net")).length, 1);
  }
});

Deno.test("the server permission set in deno.json grants nothing beyond read, env, run, net and the spool", () => {
  // Binaries get this set plus --allow-net (which replaces any net in the set), so a wider
  // set would silently widen every binary.
  const granted = Object.keys(denoJson.permissions.server);
  const known = ["read", "env", "run", "net", "write"];
  assert.deepEqual(granted.filter((name) => !known.includes(name)), []);
  // Writing only inside the default spool directory (issue #14).
  assert.deepEqual(denoJson.permissions.server.write ?? [], ["/tmp/yieldshell-spool"]);
});

Deno.test("the tty permission set is exactly the server set plus ffi", () => {
  assert.deepEqual(denoJson.permissions.tty, { ...denoJson.permissions.server, ffi: true });
});

Deno.test("--net-host adds bind addresses after loopback", async (t) => {
  await t.step("default is loopback", () => {
    assert.deepEqual(netHostList(), [...LOOPBACK_HOSTS]);
  });
  await t.step("extra hosts are appended once", () => {
    assert.deepEqual(netHostList(["0.0.0.0", "localhost", "10.0.0.5:8000", "0.0.0.0"]), [
      "127.0.0.1",
      "localhost",
      "[::1]",
      "0.0.0.0",
      "10.0.0.5:8000",
    ]);
    const [step] = planCompile({ targets: ["x86_64-apple-darwin"], netHosts: ["0.0.0.0"] });
    assert.ok(step.argv.includes("--allow-net=127.0.0.1,localhost,[::1],0.0.0.0"));
  });
  for (const host of ["", "a,b", "a b", "x=y"]) {
    await t.step(`rejects ${JSON.stringify(host)}`, () => {
      assert.throws(() => netHostList([host]), {
        message: new RegExp(`^Cannot grant network access to host "${host}": pass one host`),
      });
    });
  }
});

Deno.test("every module imported through a named specifier is included in the binary", () => {
  const lazy = new Set<string>();
  const scan = (file: URL) => {
    for (const specifier of lazyImportsOf(Deno.readTextFileSync(file))) {
      lazy.add(new URL(specifier, file).pathname.slice(ROOT.pathname.length));
    }
  };
  const walk = (dir: URL) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isDirectory) walk(new URL(`${entry.name}/`, dir));
      else if (entry.name.endsWith(".ts")) scan(new URL(entry.name, dir));
    }
  };
  walk(new URL("src/", ROOT));
  scan(new URL("main.ts", ROOT));
  assert.ok(lazy.size > 0, "no lazy import found: the scan is broken");
  for (const path of lazy) assert.ok(INCLUDES.includes(path), `${path} is not in INCLUDES`);
});

Deno.test("the included files exist in the installed packages", () => {
  for (const path of INCLUDES) {
    assert.ok(Deno.statSync(new URL(path, ROOT)).isFile, `${path} is missing`);
  }
});

Deno.test("denort location and cache path follow deno compile's layout", () => {
  assert.equal(
    denortUrl("aarch64-apple-darwin", "2.9.6"),
    "https://dl.deno.land/release/v2.9.6/denort-aarch64-apple-darwin.zip",
  );
  assert.equal(
    denortCachePath("/home/u/.cache/deno", "x86_64-pc-windows-msvc", "2.9.6"),
    join("/home/u/.cache/deno", "dl", "release", "v2.9.6", "denort-x86_64-pc-windows-msvc.zip"),
  );
});

Deno.test("DENORT_BIN serves the host target only", () => {
  const host = "x86_64-unknown-linux-gnu";
  assert.equal(usesDenortBin("x86_64-unknown-linux-gnu", host, "/opt/denort"), true);
  assert.equal(usesDenortBin("aarch64-unknown-linux-gnu", host, "/opt/denort"), false);
  assert.equal(usesDenortBin("x86_64-pc-windows-msvc", host, "/opt/denort"), false);
  assert.equal(usesDenortBin("x86_64-unknown-linux-gnu", host, undefined), false);
  assert.equal(usesDenortBin("x86_64-unknown-linux-gnu", host, ""), false);
});

Deno.test("preflightMessage", async (t) => {
  const base: PreflightReport = {
    denoVersion: "2.9.6",
    hostTarget: "x86_64-unknown-linux-gnu",
    denoDir: "/root/.cache/deno",
    missingRuntimes: [],
    missingInputs: [],
    denortBinProblem: null,
    targetCount: 5,
  };
  await t.step("null when nothing is missing", () => {
    assert.equal(preflightMessage(base), null);
  });
  const darwin = {
    target: "x86_64-apple-darwin" as const,
    url: denortUrl("x86_64-apple-darwin", "2.9.6"),
    cause: "dns error: failed to lookup address information",
  };
  const windows = {
    target: "x86_64-pc-windows-msvc" as const,
    url: denortUrl("x86_64-pc-windows-msvc", "2.9.6"),
    cause: "HTTP 404",
  };
  await t.step("names each missing runtime and the three ways to provide it", () => {
    const message = preflightMessage({ ...base, missingRuntimes: [darwin, windows] })!;
    assert.match(
      message,
      /^Cannot compile as denort 2\.9\.6, .* neither cached nor downloadable for 2 of 5 targets:\n/,
    );
    assert.ok(message.includes(`\n  x86_64-apple-darwin: ${darwin.url} (dns error: failed`));
    assert.ok(message.includes(`\n  x86_64-pc-windows-msvc: ${windows.url} (HTTP 404)\n`));
    assert.match(message, /build where https:\/\/dl\.deno\.land is reachable/);
    assert.ok(message.includes(join("/root/.cache/deno", "dl", "release", "v2.9.6") + "/"));
    assert.match(
      message,
      /set DENORT_BIN to an unzipped denort 2\.9\.6 for x86_64-unknown-linux-gnu/,
    );
    assert.match(message, /used for the host target alone/);
    assert.match(message, /\nNothing was compiled$/);
  });
  await t.step("states a cause shared by every target once", () => {
    const message = preflightMessage({
      ...base,
      missingRuntimes: [darwin, { ...windows, cause: darwin.cause }],
    })!;
    assert.match(
      message,
      /for 2 of 5 targets \(dns error: failed to lookup address information\):\n/,
    );
    assert.ok(message.includes(`\n  x86_64-pc-windows-msvc: ${windows.url}\n`));
  });
  await t.step("names missing project files, and the install hint only for node_modules", () => {
    const entry = preflightMessage({ ...base, missingInputs: ["main.ts"] })!;
    assert.match(entry, /^Cannot compile as project files are missing: main\.ts\n/);
    assert.doesNotMatch(entry, /deno install/);
    const wasm = preflightMessage({ ...base, missingInputs: [INCLUDES[0]] })!;
    assert.match(wasm, /deno install/);
  });
  await t.step("reports a DENORT_BIN that is not a file", () => {
    const message = preflightMessage({ ...base, denortBinProblem: "DENORT_BIN=/x is not a file" })!;
    assert.match(message, /^Cannot compile as DENORT_BIN=\/x is not a file\nNothing was compiled$/);
  });
  await t.step("an unknown DENO_DIR still says where the cache lives", () => {
    const message = preflightMessage({
      ...base,
      denoDir: null,
      missingRuntimes: [{ target: "x86_64-apple-darwin", url: "u", cause: "unreachable" }],
    })!;
    assert.match(message, /<DENO_DIR>\/dl\/release\/v2\.9\.6\//);
  });
});

Deno.test("versionMismatch compares a release tag with deno.json", () => {
  assert.equal(versionMismatch("v0.1.0", "0.1.0"), null);
  assert.equal(versionMismatch("0.1.0", "0.1.0"), null);
  assert.equal(
    versionMismatch("v0.2.0", "0.1.0"),
    'Cannot compile release v0.2.0 as deno.json says version 0.1.0: set "version" in ' +
      'deno.json to "0.2.0" or tag v0.1.0',
  );
});

Deno.test("formatSums writes sha256sum's format, sorted by name", async () => {
  const digest = toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode("abc")));
  assert.equal(digest, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    formatSums([
      { name: "yieldshell-x86_64-pc-windows-msvc.exe", sha256: "b".repeat(64) },
      { name: "yieldshell-aarch64-apple-darwin", sha256: digest },
    ]),
    `${digest}  yieldshell-aarch64-apple-darwin\n` +
      `${"b".repeat(64)}  yieldshell-x86_64-pc-windows-msvc.exe\n`,
  );
  assert.equal(formatSums([]), "");
});

Deno.test("planCodesign signs ad hoc by default, with Developer ID and entitlements on request", () => {
  const output = "dist/yieldshell-aarch64-apple-darwin";
  for (const identity of [undefined, "", "-"]) {
    assert.deepEqual(planCodesign([output], identity), [{
      output,
      sign: ["--force", "--sign", "-", output],
      verify: ["--verify", "--strict", "--verbose=2", output],
    }]);
  }
  const [developerId] = planCodesign([output], "Developer ID Application: Example (TEAM123)");
  assert.deepEqual(developerId.sign, [
    "--force",
    "--sign",
    "Developer ID Application: Example (TEAM123)",
    "--options",
    "runtime",
    "--entitlements",
    ENTITLEMENTS_FILE,
    "--timestamp",
    output,
  ]);
  assert.deepEqual(TARGETS.filter(isDarwinTarget), ["x86_64-apple-darwin", "aarch64-apple-darwin"]);
});

Deno.test("the entitlements let V8 run under the hardened runtime, and nothing more", () => {
  const plist = Deno.readTextFileSync(new URL(ENTITLEMENTS_FILE, ROOT));
  const keys = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((match) => match[1]);
  assert.deepEqual(keys, [
    "com.apple.security.cs.allow-jit",
    "com.apple.security.cs.allow-unsigned-executable-memory",
  ]);
});
