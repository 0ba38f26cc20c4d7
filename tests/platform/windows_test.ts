import assert from "node:assert/strict";
import type { ProcessTree } from "../../src/core/process.ts";
import { type RunSyncResult, WINDOWS_FACTS, WindowsControl } from "../../src/platform/windows.ts";
import {
  isPosixShell,
  isPowerShell,
  taskkillArgv,
  windowsDefaultShell,
  windowsShellArgv,
} from "../../src/platform/windows_argv.ts";

function fileExists(path: string | undefined): boolean {
  if (path === undefined) return false;
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

// Real processes: a POSIX shell stands in for cmd.exe on Linux and macOS (Deno ignores
// `windowsRawArguments` there); where a real cmd.exe exists, it is tested as itself.
const POSIX_SH = "/bin/sh";
const HAS_POSIX_SH = fileExists(POSIX_SH);
// `exec` makes the shell's pid the sleeper's, so killing that pid leaves nothing behind.
const SLEEPER = "exec sleep 30";
const COMSPEC = Deno.env.get("COMSPEC");
const HAS_CMD = fileExists(COMSPEC);

/** Records taskkill calls; `onCall` decides the exit code. */
function fakeRunSync(onCall: (args: readonly string[]) => number) {
  const calls: { program: string; args: string[] }[] = [];
  const runSync = (program: string, args: readonly string[]): RunSyncResult => {
    calls.push({ program, args: [...args] });
    return { code: onCall(args), stdout: "" };
  };
  return { calls, runSync };
}

/** Starts `command` under a POSIX sh in this directory with the test's environment. */
function spawnPosix(control: WindowsControl, command: string): ProcessTree {
  return control.spawn({ shell: POSIX_SH, command, cwd: Deno.cwd(), env: Deno.env.toObject() });
}

/** Kills the shell unless it already exited (its PID may be reused), then drains it. */
function guard(process: ProcessTree): { stop(): Promise<void> } {
  let exited = false;
  const done = process.exited.then(() => {
    exited = true;
  });
  return {
    async stop() {
      if (!exited) {
        try {
          Deno.kill(process.pid, "SIGKILL");
        } catch {
          // Exited meanwhile.
        }
      }
      await process.stdin.close().catch(() => {});
      // A stream already read to the end is locked; cancelling it then is a no-op failure.
      await Promise.all([
        process.stdout.cancel().catch(() => {}),
        process.stderr.cancel().catch(() => {}),
        done,
      ]);
    },
  };
}

function pidOf(args: readonly string[]): number {
  return Number(args[args.indexOf("/PID") + 1]);
}

Deno.test("windowsShellArgv runs cmd.exe verbatim with /d /s /c and raw arguments", async (t) => {
  const commands = [
    "dir",
    "echo hello world",
    'echo "a b"',
    'echo "a & b" & echo c',
    "cd /d C:\\Program Files && dir",
    'findstr "x y" "C:\\path with spaces\\f.txt" | sort > "out file.txt"',
    '"C:\\Program Files\\tool.exe" --flag "quoted arg"',
    "",
  ];
  for (const command of commands) {
    await t.step(JSON.stringify(command), () => {
      const argv = windowsShellArgv("C:\\Windows\\system32\\cmd.exe", command);
      assert.deepEqual(argv, {
        program: "C:\\Windows\\system32\\cmd.exe",
        args: ["/d", "/s", "/c", `"${command}"`],
        rawArguments: true,
      });
      // The command line cmd.exe sees: /s strips exactly the first and last quote.
      const line = argv.args.join(" ");
      assert.equal(line.slice(line.indexOf('"') + 1, -1), command);
    });
  }
});

Deno.test("cmd.exe, COMSPEC replacements and unknown shells get the cmd.exe form", async (t) => {
  const shells = [
    "cmd",
    "cmd.exe",
    "CMD.EXE",
    "C:\\Windows\\System32\\Cmd.Exe",
    "c:/x/cmd",
    "D:\\tools\\tcc.exe",
    "C:\\bash.exe\\cmd.exe",
  ];
  for (const shell of shells) {
    await t.step(shell, () => {
      assert.deepEqual(windowsShellArgv(shell, 'echo "x"'), {
        program: shell,
        args: ["/d", "/s", "/c", '"echo "x""'],
        rawArguments: true,
      });
    });
  }
});

Deno.test("PowerShell gets -NoProfile -NonInteractive -Command with the command as one argument", async (t) => {
  const shells = [
    "powershell.exe",
    "powershell",
    "PowerShell.EXE",
    "pwsh",
    "PWSH.exe",
    "C:\\Program Files\\PowerShell\\7\\pwsh.exe",
    "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
    "/usr/bin/pwsh",
  ];
  const command = 'Write-Output "a b" & echo \'c\'; Get-ChildItem "C:\\x y"';
  for (const shell of shells) {
    await t.step(shell, () => {
      assert.ok(isPowerShell(shell));
      assert.deepEqual(windowsShellArgv(shell, command), {
        program: shell,
        args: ["-NoProfile", "-NonInteractive", "-Command", command],
        // Deno's C-runtime quoting is exactly what PowerShell's argument parser undoes.
        rawArguments: false,
      });
    });
  }
  for (const shell of ["powershell_ise.exe", "pwsh.cmd", "mypwsh.exe", "C:\\pwsh\\bash.exe"]) {
    await t.step(`not ${shell}`, () => assert.equal(isPowerShell(shell), false));
  }
});

Deno.test("POSIX shells (Git Bash, MSYS, Cygwin) get -c with the command as one argument", async (t) => {
  const command = "echo \"a b\" && ls 'c d' & wait";
  const shells = [
    "C:\\Program Files\\Git\\bin\\bash.exe",
    "C:\\msys64\\usr\\bin\\SH.EXE",
    "bash",
    "zsh.exe",
    "dash",
    "/bin/sh",
  ];
  for (const shell of shells) {
    await t.step(shell, () => {
      assert.ok(isPosixShell(shell));
      assert.deepEqual(windowsShellArgv(shell, command), {
        program: shell,
        args: ["-c", command],
        rawArguments: false,
      });
    });
  }
  for (const shell of ["cmd.exe", "shx.exe", "fish.exe", "C:\\bash\\cmd.exe", "pwsh"]) {
    await t.step(`not ${shell}`, () => assert.equal(isPosixShell(shell), false));
  }
});

Deno.test("taskkillArgv kills the tree by default and validates the pid", async (t) => {
  await t.step("tree", () => {
    assert.deepEqual(taskkillArgv(4242), {
      program: "taskkill",
      args: ["/T", "/F", "/PID", "4242"],
    });
  });
  await t.step("single process", () => {
    assert.deepEqual(taskkillArgv(7, { tree: false }).args, ["/F", "/PID", "7"]);
  });
  for (const pid of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    await t.step(`rejects ${pid}`, () => {
      assert.throws(() => taskkillArgv(pid), {
        name: "RangeError",
        message: `Cannot kill process ${pid} as a pid must be a positive integer`,
      });
    });
  }
});

Deno.test("the default shell is COMSPEC in any case, else cmd.exe", () => {
  assert.equal(
    windowsDefaultShell({ ComSpec: "C:\\Windows\\system32\\cmd.exe" }),
    "C:\\Windows\\system32\\cmd.exe",
  );
  assert.equal(
    windowsDefaultShell({ COMSPEC: "D:\\tools\\tcc.exe", PATH: "x" }),
    "D:\\tools\\tcc.exe",
  );
  assert.equal(windowsDefaultShell({ COMSPEC: "" }), "cmd.exe");
  assert.equal(windowsDefaultShell({}), "cmd.exe");
  assert.equal(WINDOWS_FACTS.defaultShell({}), "cmd.exe");
});

Deno.test("the adapter describes Windows", () => {
  assert.equal(WINDOWS_FACTS.pathListSeparator, ";");
  assert.equal(WINDOWS_FACTS.pathSeparator, "\\");
  assert.deepEqual(WINDOWS_FACTS.shutdownSignals, ["SIGINT", "SIGBREAK"]);
  assert.deepEqual(windowsShellArgv("cmd.exe", "ver"), {
    program: "cmd.exe",
    args: ["/d", "/s", "/c", '"ver"'],
    rawArguments: true,
  });
});

Deno.test("supportsSignal accepts POSIX names, which all terminate on Windows", async (t) => {
  const control = new WindowsControl();
  for (
    const signal of ["SIGTERM", "SIGKILL", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGBREAK"]
  ) {
    await t.step(signal, () => assert.ok(control.supportsSignal(signal)));
  }
  for (const signal of ["TERM", "sigterm", "SIGFOO", "9", ""]) {
    await t.step(`not ${JSON.stringify(signal)}`, () => {
      assert.equal(control.supportsSignal(signal), false);
    });
  }
});

Deno.test("killTree never runs taskkill for a pid it did not start", () => {
  const { calls, runSync } = fakeRunSync(() => 0);
  const control = new WindowsControl({ runSync });
  assert.equal(control.killTree(4242), false);
  assert.equal(control.isRunning(4242), false);
  assert.deepEqual(calls, []);
});

Deno.test("sweep starts nothing (no containment token on Windows)", async () => {
  const { calls, runSync } = fakeRunSync(() => 0);
  await new WindowsControl({ runSync }).sweep();
  assert.deepEqual(calls, []);
});

Deno.test({
  name: "a started shell is tracked until taskkill kills its tree",
  ignore: !HAS_POSIX_SH,
  async fn() {
    // Stands in for taskkill: kills the shell the way /T /F would.
    const { calls, runSync } = fakeRunSync((args) => {
      Deno.kill(pidOf(args), "SIGKILL");
      return 0;
    });
    const control = new WindowsControl({ runSync });
    const process = spawnPosix(control, SLEEPER);
    const processGuard = guard(process);
    try {
      assert.equal(control.isRunning(process.pid), true);
      await process.signal("SIGTERM");
      assert.deepEqual(calls, [
        { program: "taskkill", args: ["/T", "/F", "/PID", String(process.pid)] },
      ]);
      assert.equal(control.isRunning(process.pid), false);
      await process.ended;
      // Gone: a second signal must not run taskkill against a PID that may be reused.
      await process.signal("SIGKILL");
      assert.equal(control.killTree(process.pid), false);
      assert.equal(calls.length, 1);
    } finally {
      await processGuard.stop();
    }
  },
});

Deno.test({
  name: "taskkill's answer decides what killTree reports",
  ignore: !HAS_POSIX_SH,
  async fn(t) {
    const cases = [
      { name: "not found (128): gone", code: 128, result: false, alive: false },
      { name: "access denied (1): still there", code: 1, result: true, alive: true },
    ];
    for (const { name, code, result, alive } of cases) {
      await t.step(name, async () => {
        const { runSync } = fakeRunSync(() => code);
        const control = new WindowsControl({ runSync });
        const process = spawnPosix(control, SLEEPER);
        const processGuard = guard(process);
        try {
          assert.equal(control.killTree(process.pid), result);
          assert.equal(control.isRunning(process.pid), alive);
        } finally {
          await processGuard.stop();
        }
      });
    }
  },
});

Deno.test({
  name: "the shell's exit code is reported and ends tracking",
  ignore: !HAS_POSIX_SH,
  async fn() {
    const { calls, runSync } = fakeRunSync(() => 0);
    const control = new WindowsControl({ runSync });
    const process = spawnPosix(control, "exit 3");
    const processGuard = guard(process);
    try {
      assert.deepEqual(await process.exited, { exitCode: 3, signal: null });
      await process.ended;
      assert.equal(control.isRunning(process.pid), false);
      assert.equal(control.killTree(process.pid), false);
      assert.deepEqual(calls, []);
    } finally {
      await processGuard.stop();
    }
  },
});

Deno.test("a shell that cannot start fails with the shell and cwd named", () => {
  const control = new WindowsControl();
  assert.throws(
    () =>
      control.spawn({
        shell: "/nonexistent/yieldshell-no-such-shell",
        command: "ver",
        cwd: Deno.cwd(),
        env: {},
      }),
    { message: /^Cannot start shell \/nonexistent\/yieldshell-no-such-shell/ },
  );
});

Deno.test({
  name: "cmd.exe receives the command verbatim and taskkill ends its tree (real Windows)",
  ignore: !HAS_CMD,
  async fn() {
    const control = new WindowsControl();
    const env = Deno.env.toObject();
    const quoted = control.spawn({
      shell: COMSPEC!,
      command: 'echo "a & b" & echo second',
      cwd: Deno.cwd(),
      env,
    });
    const quotedGuard = guard(quoted);
    try {
      const [stdout] = await Promise.all([new Response(quoted.stdout).text(), quoted.exited]);
      assert.match(stdout, /"a & b"/);
      assert.match(stdout, /^second\r?$/m);
    } finally {
      await quotedGuard.stop();
    }

    const tree = control.spawn({
      shell: COMSPEC!,
      command: "ping -n 60 127.0.0.1 >NUL",
      cwd: Deno.cwd(),
      env,
    });
    const treeGuard = guard(tree);
    try {
      assert.equal(control.killTree(tree.pid), true);
      await tree.ended;
      assert.equal(control.isRunning(tree.pid), false);
    } finally {
      await treeGuard.stop();
    }
  },
});
