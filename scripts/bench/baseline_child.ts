/**
 * The memory baseline: a plain Deno process (no MCP, no yieldshell) doing the
 * same work with `Deno.Command`, so its peak and resident memory can be read
 * from /proc exactly as the server's are. Driven by lines on stdin:
 *
 * - `drain <command>`: run `command` with `/bin/sh -c`, drain stdout, reply `drained <bytes>`
 * - `hold <n> <command>`: start `n` children with piped stdio, each in its own process group,
 *   keep reading them, reply `held`
 * - `release`: kill the held groups and await the children, reply `released`
 *
 * It prints `ready` once started, and exits when stdin closes.
 */
import { readLines } from "./lines.ts";

const encoder = new TextEncoder();

async function reply(text: string): Promise<void> {
  await Deno.stdout.write(encoder.encode(`${text}\n`));
}

async function drain(readable: ReadableStream<Uint8Array>): Promise<number> {
  let bytes = 0;
  for await (const chunk of readable) bytes += chunk.length;
  return bytes;
}

function shell(command: string, options: { detached?: boolean } = {}): Deno.Command {
  const { detached = false } = options;
  return new Deno.Command("/bin/sh", {
    args: ["-c", command],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    detached,
  });
}

async function release(held: Deno.ChildProcess[]): Promise<void> {
  for (const child of held.splice(0)) {
    try {
      // The whole group: the shell may not have exec'd its command, which would outlive it.
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* already gone */ }
    await child.status;
  }
}

/** Serves the line protocol above until stdin closes; held children are always released. */
async function main(): Promise<void> {
  const held: Deno.ChildProcess[] = [];
  await reply("ready");
  try {
    for await (const line of readLines(Deno.stdin.readable)) {
      const [verb, ...rest] = line.split(" ");
      if (verb === "drain") {
        const child = shell(rest.join(" ")).spawn();
        await child.stdin.close();
        const [bytes] = await Promise.all([drain(child.stdout), drain(child.stderr), child.status]);
        await reply(`drained ${bytes}`);
      } else if (verb === "hold") {
        const count = Number(rest[0]);
        for (let index = 0; index < count; index++) {
          // Own process group (as the server's executions have), so release reaches the command.
          const child = shell(rest.slice(1).join(" "), { detached: true }).spawn();
          // Pending reads, as the server keeps on every live execution.
          drain(child.stdout).catch(() => {});
          drain(child.stderr).catch(() => {});
          held.push(child);
        }
        await reply("held");
      } else if (verb === "release") {
        await release(held);
        await reply("released");
      }
    }
  } finally {
    await release(held);
  }
}

if (import.meta.main) await main();
