import assert from "node:assert/strict";
import {
  checkCwd,
  type CwdDecision,
  describeMissingCwd,
  type ResolveOptions,
  resolvePath,
} from "../../src/policy/cwd.ts";
import { ON_POSIX } from "../os.ts";

interface FakeTree {
  dirs: string[];
  /** Symlink path -> target (absolute, or relative to the link's directory). */
  links: Record<string, string>;
}

/** A POSIX realpath(3) over an in-memory tree: null when a component is missing. */
function fakeRealPath(tree: FakeTree): (path: string) => string | null {
  const dirs = new Set(["/", ...tree.dirs]);
  const walk = (path: string, from: string[], hops: number): string[] | null => {
    let current = path.startsWith("/") ? [] : [...from];
    for (const part of path.split("/")) {
      if (part === "" || part === ".") continue;
      if (part === "..") {
        current.pop();
        continue;
      }
      const candidate = `/${[...current, part].join("/")}`;
      const target = tree.links[candidate];
      if (target !== undefined) {
        if (hops > 40) throw new Error("Too many levels of symbolic links");
        const resolved = walk(target, current, hops + 1);
        if (resolved === null) return null;
        current = resolved;
      } else if (dirs.has(candidate)) {
        current = [...current, part];
      } else {
        return null;
      }
    }
    return current;
  };
  return (path) => {
    const parts = walk(path, [], 0);
    return parts === null ? null : `/${parts.join("/")}`;
  };
}

const TREE: FakeTree = {
  dirs: [
    "/home",
    "/home/u",
    "/home/u/projects",
    "/home/u/projects/app",
    "/home/u/projects/app/src",
    "/home/u/projects-private",
    "/etc",
    "/etc/ssh",
    "/tmp",
  ],
  links: {
    "/home/u/projects/inside": "/home/u/projects/app",
    "/home/u/projects/rel": "app/src",
    "/home/u/projects/escape": "/etc",
    "/home/u/projects/sneaky": "../projects-private",
    "/home/u/projects/dangling": "/nowhere/at/all",
    "/home/u/projects/loop": "/home/u/projects/loop",
    "/link-root": "/home/u/projects",
  },
};

const POSIX: ResolveOptions = { base: "/home/u/projects", realPath: fakeRealPath(TREE) };

Deno.test("resolvePath (POSIX)", async (t) => {
  const cases: [string, string][] = [
    ["/home/u/projects", "/home/u/projects"],
    ["/home/u/projects/", "/home/u/projects"],
    ["app", "/home/u/projects/app"],
    ["./app/.", "/home/u/projects/app"],
    ["", "/home/u/projects"],
    [".", "/home/u/projects"],
    ["../projects-private", "/home/u/projects-private"],
    ["/home/u/projects/../../u/projects/app", "/home/u/projects/app"],
    ["inside", "/home/u/projects/app"],
    ["inside/src", "/home/u/projects/app/src"],
    ["rel", "/home/u/projects/app/src"],
    ["inside/missing/deeper", "/home/u/projects/app/missing/deeper"],
    ["missing", "/home/u/projects/missing"],
    ["missing/../app", "/home/u/projects/app"],
    ["missing/../inside", "/home/u/projects/app"],
    ["escape/ssh", "/etc/ssh"],
    ["escape/new/dir", "/etc/new/dir"],
    // `..` after a symlink leaves the link's target, as realpath(3) and Python do.
    ["escape/..", "/"],
    ["inside/../../projects-private", "/home/u/projects-private"],
    ["sneaky", "/home/u/projects-private"],
    ["/../../..", "/"],
    ["//home//u///projects", "/home/u/projects"],
    ["/link-root/app", "/home/u/projects/app"],
    ["/link-root/missing/x", "/home/u/projects/missing/x"],
    // A dangling symlink cannot be followed through realPath alone; it stays as written.
    ["dangling", "/home/u/projects/dangling"],
  ];
  for (const [path, expected] of cases) {
    await t.step(JSON.stringify(path), () => assert.equal(resolvePath(path, POSIX), expected));
  }

  await t.step("a relative path resolves against base", () => {
    assert.equal(
      resolvePath("src", { ...POSIX, base: "/home/u/projects/app" }),
      "/home/u/projects/app/src",
    );
  });

  await t.step("realPath failures other than absence propagate", () => {
    assert.throws(() => resolvePath("loop", POSIX), {
      message: "Too many levels of symbolic links",
    });
  });
});

Deno.test("checkCwd (POSIX)", async (t) => {
  const projects = ["/home/u/projects"];
  const notUnder = (resolved: string): CwdDecision => ({
    allow: false,
    reason: `Cwd not under allowed roots: ${resolved}`,
  });
  const cases: {
    name: string;
    target: string;
    roots: string[];
    base?: string;
    want: CwdDecision;
  }[] = [
    {
      name: "root equals target",
      target: "/home/u/projects",
      roots: projects,
      want: { allow: true, resolved: "/home/u/projects" },
    },
    {
      name: "root with a trailing slash equals target",
      target: "/home/u/projects",
      roots: ["/home/u/projects/"],
      want: { allow: true, resolved: "/home/u/projects" },
    },
    {
      name: "relative descendant",
      target: "app/src",
      roots: projects,
      want: { allow: true, resolved: "/home/u/projects/app/src" },
    },
    {
      name: "sibling sharing a string prefix",
      target: "/home/u/projects-private",
      roots: projects,
      want: notUnder("/home/u/projects-private"),
    },
    {
      name: "relative sibling",
      target: "../projects-private",
      roots: projects,
      want: notUnder("/home/u/projects-private"),
    },
    {
      name: "traversal out of the root",
      target: "/home/u/projects/../projects-private",
      roots: projects,
      want: notUnder("/home/u/projects-private"),
    },
    {
      name: "traversal that comes back in",
      target: "/home/u/projects/../projects/app",
      roots: projects,
      want: { allow: true, resolved: "/home/u/projects/app" },
    },
    {
      name: "parent of the root",
      target: "/home/u",
      roots: projects,
      want: notUnder("/home/u"),
    },
    { name: "filesystem root", target: "/", roots: projects, want: notUnder("/") },
    {
      name: "symlink inside pointing inside runs in the resolved path",
      target: "inside",
      roots: projects,
      want: { allow: true, resolved: "/home/u/projects/app" },
    },
    {
      name: "symlink inside pointing outside",
      target: "escape",
      roots: projects,
      want: notUnder("/etc"),
    },
    {
      name: "missing components below an escaping symlink",
      target: "escape/not/yet",
      roots: projects,
      want: notUnder("/etc/not/yet"),
    },
    {
      name: "relative symlink escaping to a prefix sibling",
      target: "sneaky",
      roots: projects,
      want: notUnder("/home/u/projects-private"),
    },
    {
      name: "missing trailing components are allowed",
      target: "new/build/dir",
      roots: projects,
      want: { allow: true, resolved: "/home/u/projects/new/build/dir" },
    },
    {
      name: "no roots means no restriction",
      target: "/etc",
      roots: [],
      want: { allow: true, resolved: "/etc" },
    },
    {
      name: "only empty roots means no restriction",
      target: "/etc",
      roots: [""],
      want: { allow: true, resolved: "/etc" },
    },
    {
      name: "empty root entries are skipped",
      target: "/etc",
      roots: ["", "/home/u/projects"],
      want: notUnder("/etc"),
    },
    {
      name: "second root matches",
      target: "/tmp/x",
      roots: ["/home/u/projects", "/tmp"],
      want: { allow: true, resolved: "/tmp/x" },
    },
    {
      name: "root given through a symlink",
      target: "/home/u/projects/app",
      roots: ["/link-root"],
      want: { allow: true, resolved: "/home/u/projects/app" },
    },
    {
      name: "target given through a symlinked root",
      target: "/link-root/app",
      roots: projects,
      want: { allow: true, resolved: "/home/u/projects/app" },
    },
    {
      name: "root that is itself a symlink elsewhere",
      target: "/etc/ssh",
      roots: ["/home/u/projects/escape"],
      want: { allow: true, resolved: "/etc/ssh" },
    },
    {
      name: "slash root allows everything",
      target: "/etc",
      roots: ["/"],
      want: { allow: true, resolved: "/etc" },
    },
    {
      name: "relative cwd resolves against the default cwd",
      target: "src",
      roots: ["/home/u/projects/app"],
      base: "/home/u/projects/app",
      want: { allow: true, resolved: "/home/u/projects/app/src" },
    },
    {
      name: "relative cwd that leaves the default cwd",
      target: "../../projects-private",
      roots: projects,
      base: "/home/u/projects/app",
      want: notUnder("/home/u/projects-private"),
    },
    {
      name: "resolution failure of the target",
      target: "loop/x",
      roots: projects,
      want: { allow: false, reason: "Invalid cwd: Too many levels of symbolic links" },
    },
    {
      name: "resolution failure of a root",
      target: "app",
      roots: ["/home/u/projects/loop"],
      want: {
        allow: false,
        reason:
          "Invalid allowed cwd root '/home/u/projects/loop': Too many levels of symbolic links",
      },
    },
    {
      name: "relative base",
      target: "app",
      roots: projects,
      base: "relative",
      want: {
        allow: false,
        reason: "Invalid cwd: Base directory must be absolute: received 'relative'",
      },
    },
  ];
  for (const { name, target, roots, base = POSIX.base, want } of cases) {
    await t.step(name, () => assert.deepEqual(checkCwd(target, roots, { ...POSIX, base }), want));
  }
});

Deno.test("resolvePath and checkCwd (Windows separators)", async (t) => {
  const real: Record<string, string> = { "C:\\work\\link": "\\\\?\\C:\\real\\target" };
  const options: ResolveOptions = {
    base: "C:\\work",
    separator: "\\",
    realPath: (path) => real[path] ?? null,
  };
  const resolveCases: [string, string][] = [
    ["src", "C:\\work\\src"],
    ["src/lib\\..\\bin", "C:\\work\\src\\bin"],
    ["D:/x/../y", "D:\\y"],
    ["d:\\x", "D:\\x"],
    ["\\tools", "C:\\tools"],
    ["C:\\..\\..", "C:\\"],
    ["\\\\srv\\share\\a\\..\\b", "\\\\srv\\share\\b"],
    ["\\\\srv\\share\\..\\..", "\\\\srv\\share\\"],
    ["link\\sub", "C:\\real\\target\\sub"],
  ];
  for (const [path, expected] of resolveCases) {
    await t.step(`resolve ${JSON.stringify(path)}`, () => {
      assert.equal(resolvePath(path, options), expected);
    });
  }

  const checkCases: [string, string[], CwdDecision][] = [
    ["c:\\WORK\\sub", ["C:\\work"], { allow: true, resolved: "C:\\WORK\\sub" }],
    ["C:\\work-private", ["C:\\work"], {
      allow: false,
      reason: "Cwd not under allowed roots: C:\\work-private",
    }],
    ["D:\\work", ["C:\\work"], { allow: false, reason: "Cwd not under allowed roots: D:\\work" }],
    ["\\\\srv\\share\\x", ["\\\\SRV\\share"], { allow: true, resolved: "\\\\srv\\share\\x" }],
    ["link", ["C:\\work"], {
      allow: false,
      reason: "Cwd not under allowed roots: C:\\real\\target",
    }],
  ];
  for (const [target, roots, want] of checkCases) {
    await t.step(`check ${JSON.stringify(target)}`, () => {
      assert.deepEqual(checkCwd(target, roots, options), want);
    });
  }
});

Deno.test("describeMissingCwd", () => {
  assert.equal(
    describeMissingCwd("/home/u/projects/nope"),
    "Cwd does not exist: /home/u/projects/nope; pass an existing directory",
  );
});

Deno.test({
  name: "checkCwd on a real directory tree",
  // Creating symlinks on Windows needs a privilege (or developer mode) CI runners may lack.
  ignore: !ON_POSIX,
  fn: async (t) => {
    const temp = await Deno.makeTempDir({ prefix: "yieldshell_cwd_" });
    try {
      const top = Deno.realPathSync(temp);
      await Deno.mkdir(`${top}/root/inside/deep`, { recursive: true });
      await Deno.mkdir(`${top}/root-private`);
      await Deno.mkdir(`${top}/outside`);
      await Deno.symlink(`${top}/root/inside`, `${top}/root/link-in`);
      await Deno.symlink(`${top}/outside`, `${top}/root/link-out`);
      await Deno.symlink("../root-private", `${top}/root/link-sibling`);
      await Deno.symlink(`${top}/root/loop`, `${top}/root/loop`);
      const realPath = (path: string): string | null => {
        try {
          return Deno.realPathSync(path);
        } catch (error) {
          if (error instanceof Deno.errors.NotFound) return null;
          throw error;
        }
      };
      const options: ResolveOptions = { base: `${top}/root`, realPath };
      const roots = [`${top}/root`];
      const cases: [string, CwdDecision][] = [
        [".", { allow: true, resolved: `${top}/root` }],
        ["link-in", { allow: true, resolved: `${top}/root/inside` }],
        ["link-in/deep", { allow: true, resolved: `${top}/root/inside/deep` }],
        ["link-in/..", { allow: true, resolved: `${top}/root` }],
        ["link-in/missing/more", { allow: true, resolved: `${top}/root/inside/missing/more` }],
        ["link-out", { allow: false, reason: `Cwd not under allowed roots: ${top}/outside` }],
        ["link-out/x/..", { allow: false, reason: `Cwd not under allowed roots: ${top}/outside` }],
        ["link-sibling", {
          allow: false,
          reason: `Cwd not under allowed roots: ${top}/root-private`,
        }],
        ["../root-private", {
          allow: false,
          reason: `Cwd not under allowed roots: ${top}/root-private`,
        }],
      ];
      for (const [target, want] of cases) {
        await t.step(target, () => assert.deepEqual(checkCwd(target, roots, options), want));
      }
      await t.step("a symlink loop is an invalid cwd", () => {
        const decision = checkCwd("loop", roots, options);
        assert.equal(decision.allow, false);
        assert.match((decision as { reason: string }).reason, /^Invalid cwd: /);
      });
    } finally {
      await Deno.remove(temp, { recursive: true });
    }
  },
});
