/**
 * Modules loaded on first use stay unread until then: the terminal emulator (@xterm/headless,
 * imported only by src/terminal/terminal_screen.ts), the command-name checker and the HTTP
 * transport. Observed through Deno's own debug log (`DENO_LOG=debug`), which names every module
 * its loader reads, at startup and on a dynamic import alike.
 */
import assert from "node:assert/strict";
import { startServer } from "./harness.ts";
import { linux } from "../os.ts";

const root = new URL("../../", import.meta.url).href;
const READ = /fetch_no_follow - specifier: (file:\/\/\S+)/g;
const SCREEN = "src/terminal/terminal_screen.ts";
const NONE = ["NONE"];
/** Deno's resolver names each npm package it resolves, once. */
const XTERM = "Resolved package folder of @xterm/headless@";

/** The repository's modules Deno read, as paths relative to the root. */
function modulesRead(stderr: string): Set<string> {
  return new Set(
    [...stderr.matchAll(READ)].map(([, url]) => url)
      .filter((url) => url.startsWith(root)).map((url) => url.slice(root.length)),
  );
}

linux.test("a session without a terminal never reads the terminal emulator's modules", async () => {
  // The tty permission set: terminals are available, only unused.
  const s = await startServer({ permissionSet: "tty", env: { DENO_LOG: "debug" } });
  try {
    const run = await s.call("execute", { command: "echo plain", side_effects: NONE });
    assert.equal(run.payload.stdout, "plain\n");
    await s.call("ps");
    await s.call("read", { execution_id: run.payload.execution_id, since_seq: 1 });
    await s.close();
    const read = modulesRead(s.stderr());
    assert.ok(read.has("src/core/manager.ts"), "the log names the modules read");
    for (
      const lazy of [
        SCREEN,
        "src/policy/command_names/check_command_names.ts",
        "src/policy/command_names/bash_parser.ts",
        "src/transports/http.ts",
      ]
    ) assert.ok(!read.has(lazy), `${lazy} was read`);
    assert.ok(!s.stderr().includes(XTERM), "@xterm/headless was resolved");
  } finally {
    await s[Symbol.asyncDispose]();
  }
});

linux.test("a terminal screen loads the emulator on first use", async () => {
  const s = await startServer({ permissionSet: "tty", env: { DENO_LOG: "debug" } });
  try {
    const top = await s.call("execute", {
      command: "top -n 1",
      side_effects: NONE,
      tty: true,
      env: { COLUMNS: "", LINES: "" },
    });
    assert.equal(top.payload.tty.view, "screen", top.text);
    await s.close();
    assert.ok(modulesRead(s.stderr()).has(SCREEN), `${SCREEN} was not read`);
    assert.ok(s.stderr().includes(XTERM), "@xterm/headless was not resolved");
  } finally {
    await s[Symbol.asyncDispose]();
  }
});
