/**
 * yieldshell and the peers of issue 18 side by side, driven by one harness (the SDK's
 * `Client` over stdio, scripts/bench/stdio_session.ts): `echo hello` round trip, cold start,
 * the tree of 20 background `sleep 30`, and how soon an exit is reported. Alone:
 * `deno task bench:peers [--peers-dir DIR]`; also the `peers` section of `deno task bench`.
 * The peers are npm packages installed outside the repository (see {@linkcode installHint}).
 */
import { parseArgs } from "node:util";
import {
  coldStarts,
  EXIT_COMMAND,
  exitNotices,
  type Footprint,
  footprint,
  roundTrips,
  SLEEPS,
} from "./peer_figures.ts";
import { PEER_PACKAGES, type PeerServer, peerServers, yieldshellServer } from "./peer_servers.ts";
import { openSession, type StdioSession } from "./stdio_session.ts";
import type { Row, SectionResult } from "./table.ts";

/** Rounds of each timed figure; every round visits every server. */
const ROUNDS = 5;
/** Unmeasured round trips per session first, so client and servers are warm. */
const WARMUP_CALLS = 300;
/** The variable naming the directory the peers are installed in. */
export const PEERS_DIR_VARIABLE = "YIELDSHELL_PEERS_DIR";
/** Directories a peer writes outside HOME (mako10k/mcp-shell-server hard-codes them). */
const PEER_TMP_DIRS = ["/tmp/mcp-shell-outputs", "/tmp/mcp-shell-files"];

/** How to install the peers (outside the repository) and point the bench at them. */
export function installHint(dir = "/tmp/yieldshell-peers"): string {
  return `PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix ${dir} ${
    PEER_PACKAGES.join(" ")
  } && ${PEERS_DIR_VARIABLE}=${dir} deno task bench:peers`;
}

function installed(dir: string, server: PeerServer): boolean {
  const entry = server.launch("").args[0];
  try {
    return dir !== "" && Deno.statSync(entry).isFile;
  } catch {
    return false;
  }
}

async function nodeAvailable(): Promise<boolean> {
  try {
    return (await new Deno.Command("node", { args: ["--version"], stdout: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

/** A private HOME for the peers (they write configuration and history there). */
function privateHome(): string {
  const home = Deno.makeTempDirSync({ prefix: "yieldshell-peers-home-" });
  // Desktop Commander reports usage over the network unless its configuration says not to.
  Deno.mkdirSync(`${home}/.claude-server-commander`);
  Deno.writeTextFileSync(
    `${home}/.claude-server-commander/config.json`,
    JSON.stringify({ telemetryEnabled: false }),
  );
  return home;
}

function format(ms: number, floorMs: number | null): string {
  const text = ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(2)} ms`;
  return floorMs === null ? text : `${text} (${(ms / floorMs).toFixed(2)}×)`;
}

function formatFootprint(figure: Footprint | null | undefined, key: "rssBytes" | "pssBytes") {
  if (figure === undefined) return "—";
  if (figure === null) return "n/a (no background mode)";
  const mb = (figure[key] / 1e6).toFixed(1);
  return `${mb} MB, ${figure.helpers} helper process${figure.helpers === 1 ? "" : "es"}`;
}

/** Everything measured, per server. */
interface Figures {
  servers: PeerServer[];
  roundTrip: Map<PeerServer, number>;
  roundTripFloor: number;
  coldStart: Map<PeerServer, number>;
  footprint: Map<PeerServer, Footprint | null>;
  exitNotice: Map<PeerServer, number>;
  exitFloor: number;
}

async function measure(servers: PeerServer[]): Promise<Figures> {
  const sessions = new Map<PeerServer, StdioSession>();
  try {
    for (const server of servers) {
      const session = await openSession(server.launch(crypto.randomUUID()));
      sessions.set(server, session);
      const calls = Math.min(WARMUP_CALLS, server.samples);
      for (let call = 0; call < calls; call++) await server.echo(session);
    }
    const roundTrip = await roundTrips(servers, sessions, ROUNDS);
    const exitNotice = await exitNotices(servers, sessions, ROUNDS * 2);
    await Promise.all([...sessions.values()].map((session) => session.close()));
    sessions.clear();
    const coldStart = await coldStarts(servers, ROUNDS);
    const footprints = new Map<PeerServer, Footprint | null>();
    for (const server of servers) footprints.set(server, await footprint(server));
    return {
      servers,
      roundTrip: roundTrip.perServer,
      roundTripFloor: roundTrip.floorMs,
      coldStart,
      footprint: footprints,
      exitNotice: exitNotice.perServer,
      exitFloor: exitNotice.floorMs,
    };
  } finally {
    await Promise.all([...sessions.values()].map((session) => session.close()));
  }
}

function markdownTable(figures: Figures): string {
  const { servers } = figures;
  const header = ["figure", "floor (Deno.Command here, no MCP)", ...servers.map((s) => s.name)];
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  const perServer = (cell: (server: PeerServer) => string) => servers.map(cell);
  return [
    line(header),
    line(header.map((_, index) => index === 0 ? ":---" : "---:")),
    line([
      "`echo hello` round trip (median)",
      format(figures.roundTripFloor, null),
      ...perServer((s) => format(figures.roundTrip.get(s)!, figures.roundTripFloor)),
    ]),
    line([
      "cold start: spawn to the tools/list answer (median)",
      "—",
      ...perServer((s) => format(figures.coldStart.get(s)!, null)),
    ]),
    line([
      `tree RSS, ${SLEEPS} background \`sleep 30\` (sleeps excluded)`,
      "—",
      ...perServer((s) => formatFootprint(figures.footprint.get(s), "rssBytes")),
    ]),
    line([
      "tree PSS, the same trees (shared pages divided)",
      "—",
      ...perServer((s) => formatFootprint(figures.footprint.get(s), "pssBytes")),
    ]),
    line([
      "exit noticed after exit (median)",
      format(figures.exitFloor, null),
      ...perServer((s) => format(figures.exitNotice.get(s)!, figures.exitFloor)),
    ]),
  ].join("\n");
}

/** Rows of the main table: yieldshell against the best peer, where the issue sets a target. */
function targetRows(figures: Figures): Row[] {
  const [ours, ...peers] = figures.servers;
  const commands = peers.find((peer) => peer.name.startsWith("mcp-server-commands"));
  const rows: Row[] = [];
  if (commands !== undefined) {
    const theirs = figures.roundTrip.get(commands)!;
    const mine = figures.roundTrip.get(ours)!;
    rows.push({
      figure: "peers: round trip against mcp-server-commands (same sitting)",
      ours: mine,
      baseline: theirs,
      unit: "ms",
      target: "< mcp-server-commands",
      met: mine < theirs,
    });
  }
  const rss = peers.map((peer) => figures.footprint.get(peer)?.rssBytes ?? Infinity);
  const bestRss = Math.min(...rss);
  const mine = figures.footprint.get(ours)?.rssBytes;
  if (Number.isFinite(bestRss) && mine !== undefined) {
    rows.push({
      figure: `peers: tree RSS of ${SLEEPS} background sleeps against the best peer`,
      ours: mine / 1e6,
      baseline: bestRss / 1e6,
      unit: "MB",
      target: "≤ best peer",
      met: mine <= bestRss,
    });
  }
  return rows;
}

function notes(figures: Figures): string[] {
  const how = figures.servers.map((server) => `${server.name}: ${server.exitHow}`).join("; ");
  return [
    `Peers: every server is started fresh and driven by the same harness (scripts/bench/stdio_session.ts: the SDK's Client over stdio); yieldshell as the README starts it, each peer with \`node\` and a private HOME (Desktop Commander with telemetry off; mako10k/mcp-shell-server with its LLM evaluation off, MCP_SHELL_ENHANCED_MODE=false and MCP_SHELL_LLM_EVALUATION=false). Round trip: ${WARMUP_CALLS} unmeasured calls per session (fewer for slow servers), then ${ROUNDS} rounds visiting the servers in rotating order, a \`Deno.Command\` floor sample after each call; ratios are to that floor. Cold start: spawn to the tools/list answer, ${ROUNDS} rounds after one unmeasured start each. Tree: a fresh server runs one \`echo hello\`, then ${SLEEPS} \`sleep 30\` in the background; after 1.5 s, the median of 5 readings of VmRSS (and Pss) summed over the server's descendants and every process carrying its environment marker, the sleeps excluded; helper processes are the processes of that tree other than the sleeps, the server included. Exit notice: \`${EXIT_COMMAND}\` prints its exit time (epoch ns) as its last act; the figure is the client's clock when the reply carrying it arrived minus that time (${how}); floor: the same command through \`Deno.Command(...).output()\`.`,
  ];
}

/** The side-by-side section; skipped (with the way to install them) when no peer is found. */
export async function benchPeersSection(dir = Deno.env.get(PEERS_DIR_VARIABLE) ?? ""): Promise<
  SectionResult
> {
  if (!(await nodeAvailable())) return { rows: [], notes: [], skipped: "node is not on PATH" };
  const home = privateHome();
  const existed = PEER_TMP_DIRS.filter((path) => exists(path));
  try {
    const env = { ...Deno.env.toObject(), HOME: home };
    const peers = peerServers(dir, env).filter((peer) => installed(dir, peer));
    if (peers.length === 0) {
      return { rows: [], notes: [], skipped: `no peer found; install them with: ${installHint()}` };
    }
    const figures = await measure([yieldshellServer(Deno.env.toObject()), ...peers]);
    return { rows: targetRows(figures), notes: notes(figures), markdown: markdownTable(figures) };
  } finally {
    Deno.removeSync(home, { recursive: true });
    for (const path of PEER_TMP_DIRS) {
      if (!existed.includes(path) && exists(path)) Deno.removeSync(path, { recursive: true });
    }
  }
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: { "peers-dir": { type: "string" }, help: { type: "boolean" } },
    strict: true,
  });
  if (values.help) {
    console.error(`Usage: deno task bench:peers [--peers-dir DIR]\nInstall: ${installHint()}`);
    return 0;
  }
  const result = await benchPeersSection(values["peers-dir"]);
  if (result.skipped !== undefined) {
    console.error(`bench:peers skipped: ${result.skipped}`);
    return 1;
  }
  console.log(result.markdown);
  for (const note of result.notes) console.error(`\n${note}`);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
