/**
 * The servers the side-by-side bench drives, and how each one's tools map onto the same
 * four figures: the `echo hello` round trip, a background `sleep 30`, and a command whose exit
 * the server reports as soon as it can.
 */
import type { Launch, Reply, StdioSession } from "./stdio_session.ts";

/** One server under comparison. */
export interface PeerServer {
  /** Column title. */
  name: string;
  launch(marker: string): Launch;
  /** Calls `echo hello` and throws unless the reply shows its output. */
  echo(session: StdioSession): Promise<void>;
  /** Starts `sleep 30` in the background; null when the server has no background mode. */
  startSleep: ((session: StdioSession) => Promise<void>) | null;
  /** Runs `command` and resolves with the first reply that carries its final output. */
  exitReply(session: StdioSession, command: string): Promise<string>;
  /** How `exitReply` learns of the exit, for the notes. */
  exitHow: string;
  /** Calls the round trip spends per sample; slow servers get fewer. */
  samples: number;
}

/** The npm packages of the peers, as the issue names them. */
export const PEER_PACKAGES = [
  "@wonderwhy-er/desktop-commander@0.2.52",
  "mcp-server-commands@0.5.0",
  "@mako10k/mcp-shell-server@2.7.1",
];

const root = new URL("../../", import.meta.url).pathname;

function expect(reply: Reply, wanted: string, what: string): string {
  if (reply.isError || !reply.text.includes(wanted)) {
    throw new Error(`${what} answered ${JSON.stringify(reply.text.slice(0, 300))}`);
  }
  return reply.text;
}

/** yieldshell as the README starts it (with `denoFlags` added, if any). */
export function yieldshellServer(
  env: Record<string, string>,
  denoFlags: string[] = [],
): PeerServer {
  return {
    name: "yieldshell",
    launch: (marker) => ({
      command: Deno.execPath(),
      args: ["run", "-q", "-P=server", ...denoFlags, `${root}main.ts`],
      cwd: root,
      env: { ...env, YS_PEER_MARK: marker },
    }),
    async echo(session) {
      const reply = await session.call("execute", {
        command: "echo hello",
        side_effects: ["NONE"],
      });
      if (reply.structured?.stdout !== "hello\n") expect(reply, "hello", "execute");
    },
    async startSleep(session) {
      const reply = await session.call("execute", {
        command: "sleep 30",
        side_effects: ["NONE"],
        yield_ms: 0,
      });
      expect(reply, "backgrounded", "execute yield_ms 0");
    },
    async exitReply(session, command) {
      const started = await session.call("execute", {
        command,
        side_effects: ["NONE"],
        yield_ms: 0,
      });
      const id = started.structured?.execution_id;
      const waited = await session.call("wait", { execution_id: id, timeout_ms: 10_000 });
      return expect(waited, "exited", "wait");
    },
    exitHow: "execute with yield_ms 0, then wait",
    samples: 200,
  };
}

/** A peer installed under `dir` (its `node_modules`), started with `node`. */
function nodeLaunch(dir: string, entry: string, env: Record<string, string>) {
  return (marker: string): Launch => ({
    command: "node",
    args: [`${dir}/node_modules/${entry}`],
    cwd: dir,
    env: { ...env, YS_PEER_MARK: marker },
  });
}

/** The three peers of the issue; `env` must give each a private HOME. */
export function peerServers(dir: string, env: Record<string, string>): PeerServer[] {
  return [
    {
      name: "mcp-server-commands 0.5.0",
      launch: nodeLaunch(dir, "mcp-server-commands/build/index.js", env),
      async echo(session) {
        expect(
          await session.call("run_command", { command: "echo hello" }),
          "hello",
          "run_command",
        );
      },
      startSleep: null,
      async exitReply(session, command) {
        return expect(await session.call("run_command", { command }), "\n", "run_command");
      },
      exitHow: "the blocking run_command (it has no background mode)",
      samples: 200,
    },
    {
      name: "mako10k/mcp-shell-server 2.7.1",
      launch: nodeLaunch(dir, "@mako10k/mcp-shell-server/dist/index.js", {
        ...env,
        // Its default evaluates each command with the client's LLM (MCP sampling).
        MCP_SHELL_ENHANCED_MODE: "false",
        MCP_SHELL_LLM_EVALUATION: "false",
      }),
      async echo(session) {
        const reply = await session.call("shell_execute", {
          command: "echo hello",
          execution_mode: "foreground",
        });
        expect(reply, '"stdout": "hello\\n"', "shell_execute");
      },
      async startSleep(session) {
        const reply = await session.call("shell_execute", {
          command: "sleep 30",
          execution_mode: "background",
        });
        expect(reply, '"running"', "shell_execute background");
      },
      async exitReply(session, command) {
        const reply = await session.call("shell_execute", {
          command,
          execution_mode: "foreground",
        });
        return expect(reply, '"completed"', "shell_execute");
      },
      exitHow: "shell_execute in foreground mode (blocking)",
      samples: 200,
    },
    {
      name: "Desktop Commander 0.2.52",
      launch: nodeLaunch(dir, "@wonderwhy-er/desktop-commander/dist/index.js", env),
      async echo(session) {
        const reply = await session.call("start_process", {
          command: "echo hello",
          timeout_ms: 10_000,
        });
        expect(reply, "hello", "start_process");
      },
      async startSleep(session) {
        const reply = await session.call("start_process", { command: "sleep 30", timeout_ms: 100 });
        expect(reply, "running", "start_process");
      },
      async exitReply(session, command) {
        const reply = await session.call("start_process", { command, timeout_ms: 10_000 });
        return expect(reply, "Initial output", "start_process");
      },
      exitHow: "start_process, which answers once the command has exited",
      samples: 30,
    },
  ];
}
