/**
 * The four side-by-side figures, measured the same way for every server. Each figure runs in
 * rounds that visit the servers in rotating order (and the floor between them), so load on a
 * shared machine falls on all of them alike; figures are medians over all samples.
 */
import type { PeerServer } from "./peer_servers.ts";
import { killAll, type ServerTree, serverTree } from "./process_tree.ts";
import { epochMs, median, sleep } from "./stats.ts";
import { openSession, type StdioSession } from "./stdio_session.ts";

/** A command that prints its own exit time (epoch ns) as its last act. */
export const EXIT_COMMAND = "sleep 0.2; date +%s%N";
/** Background commands held for the footprint figure. */
export const SLEEPS = 20;

/** Milliseconds from the printed exit time (the last 19-digit number in `text`) to `nowMs`. */
export function msSinceExit(text: string, nowMs: number): number {
  const all = [...text.matchAll(/\d{19}/g)];
  if (all.length === 0) throw new Error(`No exit time in ${JSON.stringify(text.slice(0, 300))}`);
  const ns = all[all.length - 1][0];
  return nowMs - (Number(ns.slice(0, 13)) + Number(ns.slice(13)) / 1e6);
}

/** `echo hello` through `Deno.Command` here: the floor of every round trip. */
export async function floorEcho(): Promise<number> {
  const started = performance.now();
  await new Deno.Command("/bin/sh", { args: ["-c", "echo hello"] }).output();
  return performance.now() - started;
}

/** {@linkcode EXIT_COMMAND} through `Deno.Command` here: ms from its exit to its resolution. */
export async function floorExit(): Promise<number> {
  const { stdout } = await new Deno.Command("/bin/sh", { args: ["-c", EXIT_COMMAND] }).output();
  return msSinceExit(new TextDecoder().decode(stdout), epochMs());
}

/** Rotates `items` by `round`, so no server always goes first. */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const shift = round % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Median `echo hello` round trips (ms) per server, and the floor's, from warm sessions. */
export function roundTrips(
  servers: readonly PeerServer[],
  sessions: Map<PeerServer, StdioSession>,
  rounds: number,
): Promise<{ perServer: Map<PeerServer, number>; floorMs: number }> {
  return rotatedMedians(servers, rounds, {
    visits: (server) => Math.ceil(server.samples / rounds),
    sample: (server) => timed(() => server.echo(sessions.get(server)!)),
    floor: floorEcho,
  });
}

/**
 * Medians per server and of the floor: each round visits every server in rotating order and
 * takes `visits` samples there, each followed by a floor sample.
 */
async function rotatedMedians(
  servers: readonly PeerServer[],
  rounds: number,
  how: {
    visits(server: PeerServer): number;
    sample(server: PeerServer): Promise<number>;
    floor(): Promise<number>;
  },
): Promise<{ perServer: Map<PeerServer, number>; floorMs: number }> {
  const samples = new Map<PeerServer, number[]>(servers.map((server) => [server, []]));
  const floor: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const server of rotated(servers, round)) {
      for (let visit = 0; visit < how.visits(server); visit++) {
        samples.get(server)!.push(await how.sample(server));
        floor.push(await how.floor());
      }
    }
  }
  const perServer = new Map([...samples].map(([server, ms]) => [server, median(ms)]));
  return { perServer, floorMs: median(floor) };
}

/** Median spawn-to-`tools/list`-answer time (ms) per server. */
export async function coldStarts(
  servers: readonly PeerServer[],
  rounds: number,
): Promise<Map<PeerServer, number>> {
  const samples = new Map<PeerServer, number[]>(servers.map((server) => [server, []]));
  // One unmeasured start each fills module and compile caches.
  for (const server of servers) await coldStartMs(server);
  for (let round = 0; round < rounds; round++) {
    for (const server of rotated(servers, round)) {
      samples.get(server)!.push(await coldStartMs(server));
    }
  }
  return new Map([...samples].map(([server, ms]) => [server, median(ms)]));
}

async function coldStartMs(server: PeerServer): Promise<number> {
  const started = performance.now();
  await using session = await openSession(server.launch(crypto.randomUUID()));
  const tools = await session.listTools();
  const elapsed = performance.now() - started;
  if (tools.length === 0) throw new Error(`${server.name} listed no tools`);
  return elapsed;
}

/** Memory and processes of a fresh server holding {@linkcode SLEEPS} background sleeps. */
export interface Footprint {
  rssBytes: number;
  pssBytes: number;
  helpers: number;
}

/** The footprint of one fresh server, or null when it has no background mode. */
export async function footprint(server: PeerServer): Promise<Footprint | null> {
  const { startSleep } = server;
  if (startSleep === null) return null;
  const marker = crypto.randomUUID();
  await using session = await openSession(server.launch(marker));
  let commands = serverTree(session.pid, marker, "sleep").commands;
  try {
    await server.echo(session);
    for (let index = 0; index < SLEEPS; index++) await startSleep(session);
    await sleep(1_500);
    const readings: ServerTree[] = [];
    for (let reading = 0; reading < 5; reading++) {
      readings.push(serverTree(session.pid, marker, "sleep"));
      await sleep(100);
    }
    commands = readings.at(-1)!.commands;
    if (commands.length !== SLEEPS) {
      throw new Error(`${server.name} holds ${commands.length} sleeps, not ${SLEEPS}`);
    }
    const sum = (key: "rssBytes" | "pssBytes") =>
      median(readings.map((tree) => tree.helpers.reduce((total, p) => total + p[key], 0)));
    return {
      rssBytes: sum("rssBytes"),
      pssBytes: sum("pssBytes"),
      helpers: readings.at(-1)!.helpers.length,
    };
  } finally {
    killAll(commands);
  }
}

/** Median ms from a command's exit to the reply that reports it, per server, and the floor's. */
export function exitNotices(
  servers: readonly PeerServer[],
  sessions: Map<PeerServer, StdioSession>,
  rounds: number,
): Promise<{ perServer: Map<PeerServer, number>; floorMs: number }> {
  return rotatedMedians(servers, rounds, {
    visits: () => 1,
    sample: async (server) =>
      msSinceExit(await server.exitReply(sessions.get(server)!, EXIT_COMMAND), epochMs()),
    floor: floorExit,
  });
}
